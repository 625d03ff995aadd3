/**
 * U+0000, which a Postgres text column cannot hold, or a UTF-16 surrogate without its pair,
 * which is no character at all and would come back from either database as U+FFFD.
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Whether a string is stored, searched and read back exactly on every database. */
export const isStorableText = (s: string): boolean => !UNSTORABLE.test(s)
