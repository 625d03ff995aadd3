/** What must never appear in a response or a log line: keys, the DR password, stack frames. */
export interface Secrets {
  readonly keys: readonly string[]
  readonly password?: string
}

const stackFrame = /\bat .*\.(ts|js|mjs):\d+/
const serverSql = [/\bselect\s.+\sfrom\s/i, /\binsert\s+into\s/i, /\bupdate\s+"\w+"\s+set\b/i, /\bdelete\s+from\s+"/i, /\bSQLITE_\w+/, /syntax error at or near/i]

/**
 * The first leak found in a response body, or null. Stack frames and SQL text count only in
 * error answers (a 2xx answer returns data clients stored, which may hold any text) and only
 * where the client did not send them itself (an error may quote the offending value back).
 */
export function findLeak(body: string, secrets: Secrets, sent = '', status = 500): string | null {
  for (const key of secrets.keys) if (key && body.includes(key)) return 'an API key'
  if (secrets.password && body.includes(secrets.password)) return 'the DR password'
  if (status < 400) return null
  if (body.includes('tbk_')) return 'a key prefix tbk_'
  if (stackFrame.test(body) && !stackFrame.test(sent)) return 'a stack frame'
  for (const re of serverSql) if (re.test(body) && !re.test(sent)) return `SQL text (${re})`
  return null
}
