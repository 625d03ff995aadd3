import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BillMatcher } from '../../core/carrier-bills/bill-matcher.js'
import { wildcardTest } from '../../core/carrier-bills/wildcard.js'
import { datePatternProblem } from '../../core/presets/carrier-maps.js'
import { quietConsole } from '../support/quiet-console.js'

const test = suite('core/carrier-bills: patterns have only the * and ? wildcards (contract 17.4)')

const references = ['REF(1)23', 'REF123', 'A[1]B', 'A1B', 'X|Y', 'X', 'a+b', 'aab', 'C.D', 'CxD', 'E$F', 'G^H', 'lower', 'LOWER', '{a,b}1', 'a1', 'a/b/c', 'a\\b']
const matcher = new BillMatcher(references.map((reference) => ({ productCode: 'P', reference })))
const matching = (pattern: string) => matcher.linesOf({ carrierProduct: 'P', carrierProductMatches: null, carrierReference: null, numberCarrierReference: null, carrierReferenceMatches: pattern }).map((i) => references[i])

test('brackets, parentheses, braces and regular-expression characters are themselves', () => {
  assert.equal(matching('REF(1)*'), ['REF(1)23'])
  assert.equal(matching('A[1]B'), ['A[1]B'])
  assert.equal(matching('X|Y'), ['X|Y'])
  assert.equal(matching('a+b'), ['a+b'])
  assert.equal(matching('C.D'), ['C.D'])
  assert.equal(matching('E$F'), ['E$F'])
  assert.equal(matching('G^H'), ['G^H'])
  assert.equal(matching('{a,b}?'), ['{a,b}1'])
  assert.equal(matching('a\\b'), ['a\\b'])
})

test('* is any run (a / included), ? any one character; case counts', () => {
  assert.equal(matching('a*'), ['a+b', 'aab', 'a1', 'a/b/c', 'a\\b'])
  assert.equal(matching('a?b'), ['a+b', 'aab', 'a\\b'])
  assert.equal(matching('*/c'), ['a/b/c'])
  assert.equal(matching('lower'), ['lower'])
})

test('property: a pattern without wildcards matches exactly itself', () => {
  const text = fc.string({ maxLength: 12 }).map((s) => s.replace(/[*?]/g, ''))
  fc.assert(
    fc.property(text, text, (pattern, other) => {
      const t = wildcardTest(pattern)
      return t(pattern) && t(other) === (other === pattern)
    }),
  )
})

test('property: * and ? stand for what they replaced', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 4 }), fc.string({ minLength: 1, maxLength: 1 }), fc.string({ maxLength: 8 }), (head, run, one, tail) => {
      const literal = (s: string) => s.replace(/[*?]/g, '')
      const [h, t] = [literal(head), literal(tail)]
      return wildcardTest(`${h}*${t}`)(h + run + t) && wildcardTest(`${h}?${t}`)(h + one + t)
    }),
  )
})

/** The regular expression patterns were compiled to before: the reference the matcher must agree with (short inputs only). */
const regexTest = (pattern: string) => {
  const body = pattern.replace(/[.+^${}()|[\]\\/-]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')
  const re = new RegExp(`^${body}$`, 's')
  return (text: string) => re.test(text)
}

test('property: the matcher agrees with the regular expression it replaces (runs of *, ?, regex characters, line breaks, surrogates)', () => {
  const alphabet = fc.constantFrom('a', 'b', 'A', '*', '?', '.', '(', '[', '\\', '$', '\n', ' ', '\ud83d', '\ude00')
  const text = fc.array(alphabet, { maxLength: 10 }).map((cs) => cs.join(''))
  fc.assert(
    fc.property(text, text, (pattern, other) => {
      const t = wildcardTest(pattern)
      const r = regexTest(pattern)
      // The pattern read as text, and a text of its own.
      return t(other) === r(other) && t(pattern) === r(pattern)
    }),
    { numRuns: 5000 },
  )
})

test('property: a text made from the pattern (each * a run, each ? a character) matches it', () => {
  const piece = fc.oneof(fc.constantFrom('*', '?', '**'), fc.string({ minLength: 1, maxLength: 3 }).map((s) => s.replace(/[*?]/g, 'x')))
  fc.assert(
    fc.property(fc.array(fc.tuple(piece, fc.string({ maxLength: 3 })), { maxLength: 8 }), (parts) => {
      const pattern = parts.map(([p]) => p).join('')
      const text = parts.map(([p, fill]) => (p.startsWith('*') ? fill : p === '?' ? 'q' : p)).join('')
      return wildcardTest(pattern)(text) && regexTest(pattern)(text)
    }),
  )
})

test('hostile patterns on 500-character references answer (a backtracking RegExp took seconds at 120)', () => {
  const a500 = 'a'.repeat(500)
  assert.is(wildcardTest('*a*a*a*a*a*b')(a500), false)
  assert.is(wildcardTest('*a*a*a*a*a*a*a*a*a*a*a*a*b')(a500), false)
  assert.is(wildcardTest(`${'*?'.repeat(40)}b`)(a500), false)
  assert.is(wildcardTest('*a*a*a*a*a*a')(a500), true)
  assert.is(wildcardTest(`${'*'.repeat(250)}a${'?'.repeat(249)}`)(a500), true)
  assert.is(wildcardTest('a*b')(`${a500.slice(0, 499)}b`), true)
  assert.is(wildcardTest('**')(''), true)
  assert.is(wildcardTest('')(''), true, 'an empty pattern is the empty text, as before (a feature with one has no pattern: linesOf)')
  assert.is(wildcardTest('')('a'), false)
})

test('spaces around a feature\'s product, reference, number reference or pattern are ignored, as around a line\'s fields; spaces alone are unset', () => {
  const lines = new BillMatcher([
    { productCode: 'SIP', reference: 'REF-1' },
    { productCode: 'BB', reference: 'NUM-1' },
    { productCode: 'LR-9', reference: 'L 1' },
  ])
  const key = (k: Partial<Record<'carrierProduct' | 'carrierProductMatches' | 'carrierReference' | 'numberCarrierReference' | 'carrierReferenceMatches', string>>) =>
    lines.linesOf({ carrierProduct: null, carrierProductMatches: null, carrierReference: null, numberCarrierReference: null, carrierReferenceMatches: null, ...k })
  assert.equal(key({ carrierProduct: 'SIP ', carrierReference: ' REF-1' }), [0])
  assert.equal(key({ carrierProduct: 'BB', numberCarrierReference: 'NUM-1 ' }), [1])
  assert.equal(key({ carrierProduct: 'BB', carrierReference: '  ', numberCarrierReference: 'NUM-1' }), [1], 'a reference of spaces is unset: the number\'s is used')
  assert.equal(key({ carrierProductMatches: ' LR-* ', carrierReference: 'L 1' }), [2], 'spaces inside stay')
  assert.equal(key({ carrierProduct: 'SIP', carrierReferenceMatches: ' REF-? ' }), [0])
  assert.equal(key({ carrierProduct: 'SIP', carrierReference: 'REF-1 ', carrierReferenceMatches: '  ' }), [0])
  assert.equal(new BillMatcher([{ productCode: ' SIP', reference: 'REF-1 ' }]).linesOf({ carrierProduct: 'SIP', carrierProductMatches: null, carrierReference: 'REF-1', numberCarrierReference: null, carrierReferenceMatches: null }), [0])
})

test('a dateFormat date-fns refuses is named when the presets load, with the fix, and nothing is printed on the console', () => {
  const printed = quietConsole()
  try {
    // DD and YYYY are what a spreadsheet means by day and year; to date-fns, day of the year and week-numbering year.
    assert.is(datePatternProblem('DD/MM/YYYY'), 'Use `dd` for the day of the month: `DD` is the day of the year')
    assert.is(datePatternProblem('dd/MM/YYYY'), 'Use `yyyy` for the year: `YYYY` is the week-numbering year')
    assert.is(datePatternProblem('D.M.YY'), 'Use `d` for the day of the month: `D` is the day of the year')
    assert.is(datePatternProblem('d/M/Y'), 'Use `y` for the year: `Y` is the week-numbering year')
    assert.match(datePatternProblem('HH:mm z') ?? '', /unescaped latin alphabet character `z`/)
    // A day of the year written in full (DDD) is what it says; quoted letters are text.
    for (const fine of ['dd/MM/yyyy', 'dd/MM/yy', 'HH:mm:ss', "yyyy-MM-dd'T'HH:mm", 'EEE dd MMM yyyy', 'yyyy-DDD', "'DD 'dd/MM/yyyy"]) assert.is(datePatternProblem(fine), null, fine)
  } finally {
    printed.restore()
  }
  assert.equal(printed.lines, [], 'nothing on the console')
})

test.run()
