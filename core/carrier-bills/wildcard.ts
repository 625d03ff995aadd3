/** Characters a regular expression gives a meaning to: escaped, so they match themselves. */
const SPECIAL = /[.+^${}()|[\]\\/-]/g

/**
 * A test for a carrier code or reference pattern (contract 17.4): `*` is any run of characters
 * (none included), `?` any one; every other character is itself. A glob library was used before
 * and read `[1]`, `(a)` and `{a,b}` as classes and groups, which carriers' references contain
 * literally (`REF(1)*` failed to match `REF(1)23`, `A[1]B` matched `A1B`). Case counts.
 */
export function wildcardTest(pattern: string): (text: string) => boolean {
  const body = pattern.replace(SPECIAL, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')
  // `s`: a `*` or `?` spans any character, a line break included (a code is text, not a line).
  const re = new RegExp(`^${body}$`, 's')
  return (text) => re.test(text)
}
