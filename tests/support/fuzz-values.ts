import fc from 'fast-check'

/**
 * Hostile values for the fuzzer. SQL strings are written in lower case on purpose: the leak
 * scan looks for the server's own SQL, and an echo of what the client sent is not a leak.
 */
export const sqlStrings = [
  "' or '1'='1",
  "1' or 1=1 --",
  "x'; drop table customers; --",
  "'); delete from customers where ('1'='1",
  '" or ""="',
  "1 union all select null, null --",
  "Robert'); drop table students;--",
  "admin'--",
  "' /* comment */ or 1=1 #",
  '$1',
  '?',
  '%',
  '_',
  "\\'; --",
  "E'\\x00'",
  "';shutdown --",
  '1; update api_keys set "expertLevel" = 5',
]

export const traversalStrings = [
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/etc/passwd',
  '....//....//etc/passwd',
  'file:///etc/passwd',
  '..%00/',
  '..%c0%af..%c0%af',
]

export const nanLikeStrings = [
  'NaN', 'Infinity', '-Infinity', 'null', 'undefined', 'true', 'false', '1e309', '-1e309', '-0', '0x1F',
  '1_000', '١٢٣', '１２３', ' 12 ', '12abc', '', ' ', '1.', '.5', '+1', '--1', '1e-400', '9'.repeat(400),
  '12,50', '1.23456', '0.00001', '1e15', '-', 'e', '1/0',
]

export const badDates = [
  '2025-02-29', '2024-02-30', '2025-13-01', '2025-00-10', '0000-01-01', '2025-1-1', '2025-01-01T00:00:00Z',
  '20250101', '2025/01/01', '2025-01-01 ', '+002025-01-01', '2025-W01', '2025-01-32', '1900-02-29', '2025-04-31',
]

export const goodDates = ['2024-02-29', '2026-01-15', '2000-02-29', '9999-12-31', '0001-01-01']

export const badDatetimes = [
  '2025-02-29T00:00:00', '2025-01-01T24:00:00', '2025-01-01T00:00:00+25:00', '2025-01-01T00:00:60Z', 'now',
  '2025-01-01T00:00', '2025-01-01t00:00:00z', '2025-01-01T00:00:00.Z', '2025-01-01T00:00:00+0100', '1e309',
]

export const oddStrings = [
  '\u0000', 'a\u0000b', '\ud800', '\udfff', 'x\udbffy', '\u202e', '🦄', '\ufeff', '\r\n', 'Ω', '\u0085', '\t',
  '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '%s%s%s%n', 'tab\there', '\\u0000',
]

/** Raw JSON number texts that JSON.stringify cannot produce. */
export const rawNumbers = [
  '1e309', '-1e309', '1e-400', '-0', '123456789012345678901234567890', '0.1e1', '1E+2', '1.00000000000000000001',
  '4.9e-324', '9007199254740993', '1e15', '-1e15', '0.00001', '1.2345', '99999999999999999999.9999',
]

export const garbageIds = [
  '0', '-1', 'abc', '1.5', '1e3', '00001', '%201', '%00', '99999999999999999999999', '9223372036854775808',
  '18446744073709551616', '1%27%20OR%20%271%27%3D%271', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%F0%28%8C%BC', '%ZZ', '%',
  "'", 'NaN', 'Infinity', '0x10', '%EF%BC%91', 'x'.repeat(3000), '1;drop%20table%20customers', '%E0%A4%A', '9999999',
  '1234567890123456', '12345678901234567',
]

/** Strings a database may choke on: NUL, unpaired surrogates, long text without repetition (index limits). */
export const dbPoison: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udbffy', '\udc00'),
  fc.string({ unit: 'binary', minLength: 150, maxLength: 400 }),
  fc.integer({ min: 201, max: 3000 }).map((n) => Array.from({ length: n }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join('')),
)

const hugeStrings = fc.constantFrom('x'.repeat(10_001), 'é'.repeat(12_000), '🦄'.repeat(6_000), 'a'.repeat(10_000))

/** Any hostile string, from the lists above or random. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...sqlStrings) },
  { weight: 1, arbitrary: fc.constantFrom(...traversalStrings) },
  { weight: 2, arbitrary: fc.constantFrom(...nanLikeStrings) },
  { weight: 2, arbitrary: fc.constantFrom(...badDates, ...goodDates, ...badDatetimes) },
  { weight: 2, arbitrary: fc.constantFrom(...oddStrings) },
  { weight: 1, arbitrary: hugeStrings },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
)

/** A header-safe string (visible Latin-1, no CR/LF): fetch refuses anything else before sending. */
export const headerString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', 'x', "' or 1=1 --", '../../etc/passwd', 'a'.repeat(300), '\u00ff\u00fe', 'null', '%00'),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
)
