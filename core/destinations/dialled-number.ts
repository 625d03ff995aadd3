/**
 * A dialled number as international digits, the form destination prefixes are written in
 * (contract 17.2): formatting (spaces, dashes, dots, parentheses) removed; `+` or `00` mean the
 * digits that follow are international already; a single leading `0` is national, under
 * `countryCallingCode`; digits without either are taken as international as they stand (carriers
 * often send E.164 without its `+`). Null when what is left is not all digits (`*`, `#`,
 * letters, withheld), so such a number matches no prefix.
 *
 * Three rules on text, written out rather than parsed by google-libphonenumber: its parse
 * builds a PhoneNumber and checks the number's validity against the metadata of its region,
 * which refuses the short codes and partial numbers carriers' records hold; the prefix is all
 * a lookup needs.
 */
export function internationalDigits(raw: string, countryCallingCode: string): string | null {
  if (isDigits(raw)) return national(raw, countryCallingCode)
  // `+44 (0)20 …`, `0044 (0)20 …`: the trunk 0 written after the country code is not dialled
  // (as a customer's number is read, core/rating/phone-number.ts).
  let s = raw.replace(/[\s\-.]/g, '').replace(/^(\+\d{1,3}|00\d{1,3})\(0\)/, '$1')
  const plus = s.startsWith('+')
  s = s.slice(plus ? 1 : 0).replace(/[()]/g, '')
  if (!isDigits(s)) return null
  return plus ? s : national(s, countryCallingCode)
}

function national(s: string, countryCallingCode: string): string | null {
  if (s.startsWith('00')) return s.length > 2 ? s.slice(2) : null
  if (s.startsWith('0')) return s.length > 1 ? countryCallingCode + s.slice(1) : null
  return s
}

function isDigits(s: string): boolean {
  if (s.length === 0) return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}
