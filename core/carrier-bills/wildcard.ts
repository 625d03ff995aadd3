/**
 * A test for a carrier code or reference pattern (contract 17.4): `*` is any run of characters
 * (none included), `?` any one; every other character is itself. A glob library was used before
 * and read `[1]`, `(a)` and `{a,b}` as classes and groups, which carriers' references contain
 * literally (`REF(1)*` failed to match `REF(1)23`, `A[1]B` matched `A1B`). Case counts. A `*` or
 * `?` spans any character, a line break included (a code is text, not a line); characters are
 * UTF-16 units, as a string's length counts them.
 *
 * Matched without a regular expression: a pattern is a client's text, and `*a*a*a*a*a*b` made a
 * backtracking RegExp take seconds on a 120-character reference, the event loop blocked. Here the
 * text is read once, left to right; on a mismatch only the last `*` is tried one character
 * further (an earlier `*` never needs to take more: whatever the later one lets through it can
 * too). Runs of `*` are one. At most pattern length × text length steps.
 */
export function wildcardTest(pattern: string): (text: string) => boolean {
  const p = pattern.replace(/\*{2,}/g, '*')
  return (text) => wildcardMatches(p, text)
}

function wildcardMatches(p: string, s: string): boolean {
  let i = 0 // in the text
  let j = 0 // in the pattern
  let star = -1 // the last `*` met in the pattern
  let from = 0 // where the text stood when it was met (what it has taken so far ends here)
  while (i < s.length) {
    const c = j < p.length ? p.charCodeAt(j) : -1
    if (c === STAR) {
      star = j++
      from = i
    } else if (c === QUESTION || c === s.charCodeAt(i)) {
      i++
      j++
    } else if (star >= 0) {
      j = star + 1
      i = ++from
    } else {
      return false
    }
  }
  while (j < p.length && p.charCodeAt(j) === STAR) j++
  return j === p.length
}

const STAR = 42 // '*'
const QUESTION = 63 // '?'
