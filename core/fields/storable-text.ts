/**
 * U+0000, which a Postgres text column cannot hold, or a UTF-16 surrogate without its pair,
 * which is no character at all and would come back from either database as U+FFFD.
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Whether a string is stored, searched and read back exactly on every database. */
export const isStorableText = (s: string): boolean => !UNSTORABLE.test(s)

/**
 * Why a text cannot be stored, to follow the name of where it is (`line 3: description holds a
 * NUL character`), or null when it can: the one check every CSV import makes of the fields it
 * reads, so a NUL is refused as `400101` naming its line and field, as the JSON forms refuse it,
 * instead of failing the Postgres insert (500) or being kept by SQLite.
 */
export function unstorableReason(s: string): string | null {
  if (isStorableText(s)) return null
  return s.includes('\u0000') ? 'holds a NUL character' : 'holds half of a UTF-16 surrogate pair'
}
