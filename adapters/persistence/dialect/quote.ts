/** A name quoted as an SQL identifier, for SQL written by hand (the same in both databases). */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`
