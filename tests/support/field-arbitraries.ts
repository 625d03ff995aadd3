import fc from 'fast-check'
import type { Field } from '../../core/fields/field.js'
import { fromUnits } from '../../core/money/money.js'

/** Doubles whose JSON text is easy to get wrong: 15 digits too few, exponents, -0. */
export const awkwardNumbers = fc.constantFrom(0.1, 0.30000000000000004, 1 / 3, 1e21, 5e-7, 2 ** 53 + 2, -0)

/** Money at the ends of the accepted range and around a unit. */
export const awkwardAmounts = fc.constantFrom(0n, -1n, 1n, 10_000n, -5_000n, 123_400n)

/** A value of the field's wire type (never null), with `text` for the text types. */
export function valueOfType(f: Field, text: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  switch (f.type) {
    case 'id':
      return fc.bigInt({ min: 1n, max: 2n ** 53n }).map(String)
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), awkwardNumbers)
    case 'currency':
      return fc.oneof(fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }), awkwardAmounts).map(fromUnits)
    case 'boolean':
      return fc.boolean()
    case 'presets':
      return fc.array(text, { maxLength: 3 })
    default:
      return text
  }
}
