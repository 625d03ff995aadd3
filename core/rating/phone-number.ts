/**
 * The canonical form numbers are compared in, on both sides: a call record's numbers and a
 * number's `number` / `CDRNumber..4`. UK national form is canonical, because that is how
 * numbers are sold and entered:
 *
 * - spaces, tabs, dashes, dots and parentheses are removed; a trunk marker `(0)` right after
 *   an international prefix goes too (`+44 (0)20 7946 0000`), elsewhere its 0 stays;
 * - a leading `+` becomes the international prefix `00`;
 * - `0044…` (so also `+44…`) becomes `0…`;
 * - bare E.164 as carriers often send it, `44` followed by 9 or 10 digits not starting with 0,
 *   becomes `0…` (no UK national number starts with `44`, they all start with `0`).
 *
 * So `+44 1632 960000`, `0044-1632-960000`, `441632960000` and `01632 960000` are all
 * `01632960000`; `+33 1 23 45 67 89` is `0033123456789`. Anything else (letters, `*`, `#`)
 * is kept, so withheld or odd numbers still compare exactly.
 */
export function normaliseNumber(raw: string): string {
  // Carriers send plain digits nearly always, and digits need none of the three regex passes,
  // which showed in an import's time (bench/rating.ts; figures in bench/RESULTS.md).
  // Numbers are often stored spaced (`01632 960000`): digits and spaces need no regex either.
  const s = digitsWithoutSpaces(raw) ?? stripFormatting(raw)
  if (s.startsWith('0044')) return `0${s.slice(4)}`
  if ((s.length === 11 || s.length === 12) && s.startsWith('44') && s[2] !== '0' && isDigits(s)) return `0${s.slice(2)}`
  return s
}

function stripFormatting(raw: string): string {
  const s = raw
    .replace(/[\s\-.]/g, '')
    .replace(/^(\+\d{1,3}|00\d{1,3})\(0\)/, '$1')
    .replace(/[()]/g, '')
  return s.startsWith('+') ? `00${s.slice(1)}` : s
}

function isDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

/** Text of digits and spaces without its spaces (itself when it has none); null for any other text. */
function digitsWithoutSpaces(s: string): string | null {
  let spaces = false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 32) spaces = true
    else if (c < 48 || c > 57) return null
  }
  return spaces ? s.replaceAll(' ', '') : s
}
