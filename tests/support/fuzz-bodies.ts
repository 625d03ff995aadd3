import fc from 'fast-check'
import type { Field } from '../../core/fields/field.js'
import { dbPoison, garbageIds, goodDates, hostileString, oddStrings, rawNumbers, sqlStrings } from './fuzz-values.js'

/**
 * A JSON document as the fuzzer writes it: objects keep their entries in order with
 * duplicates allowed, and `raw` splices number texts JSON.stringify cannot produce.
 */
export type Json = null | boolean | number | string | Json[] | { obj: [string, Json][] } | { raw: string }

export function toJsonText(j: Json): string {
  if (j === null || typeof j !== 'object') return JSON.stringify(j) ?? 'null'
  if (Array.isArray(j)) return `[${j.map(toJsonText).join(',')}]`
  if ('raw' in j) return j.raw
  return `{${j.obj.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`
}

const scalar: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  hostileString,
  fc.constantFrom(...rawNumbers).map((raw) => ({ raw })),
)

/** Arrays and objects a few levels deep, with hostile leaves. */
const nested: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.array(fc.tuple(fc.string({ maxLength: 6 }), tie('v')), { maxLength: 3 }).map((obj) => ({ obj })),
  ),
})).v

/** Arrays or objects nested hundreds or thousands of levels deep, as raw text. */
const deep: fc.Arbitrary<Json> = fc
  .tuple(fc.integer({ min: 30, max: 20_000 }), fc.boolean())
  .map(([n, arrays]) => ({ raw: arrays ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n) }))

/** A value for a field: plausible for its type (the right JSON type, hostile content), or with `hostile` often not even that. */
export function fieldValue(field: Field | undefined, presetNames: readonly string[], ids: readonly string[], hostile = true): fc.Arbitrary<Json> {
  const plausible: fc.Arbitrary<Json>[] = [fc.constant(null)]
  switch (field?.type) {
    case 'date':
      plausible.push(fc.constantFrom(...goodDates))
      break
    case 'currency':
      plausible.push(fc.constantFrom('12.50', 0.1, '-3', '0.0001', 1e11), fc.constantFrom(...rawNumbers).map((raw) => ({ raw })))
      break
    case 'number':
      plausible.push(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(...rawNumbers).map((raw) => ({ raw })))
      break
    case 'boolean':
      plausible.push(fc.boolean())
      break
    case 'id':
      plausible.push(fc.constantFrom(...(ids.length ? ids : ['1'])), fc.constantFrom(...garbageIds))
      break
    case 'preset':
    case 'presets': {
      const names = presetNames.length ? presetNames : ['x']
      const one = fc.oneof(fc.constantFrom(...names), fc.constantFrom(...names).map((n) => n.toUpperCase()), hostileString)
      plausible.push(field.type === 'presets' ? fc.array(one, { maxLength: 4 }) : one)
      break
    }
    default:
      // Strings are the right type for text: these get past the type check to the database.
      plausible.push(
        fc.string({ maxLength: 30 }),
        fc.constantFrom(...sqlStrings, ...oddStrings),
        dbPoison,
        fc.integer({ min: 1000, max: 12_000 }).map((n) => 'x'.repeat(n)),
      )
  }
  if (!hostile) return fc.oneof(...plausible)
  return fc.oneof(
    { weight: 6, arbitrary: fc.oneof(...plausible) },
    { weight: 6, arbitrary: scalar },
    { weight: 2, arbitrary: nested },
    { weight: 1, arbitrary: deep },
  )
}

/** Raw bodies that are not a JSON object, or not JSON, or not UTF-8. */
export const rawBody: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.constantFrom(
    '{"a":', '{"a":1,}', "{'a':1}", '{"a":1}garbage', '\ufeff{}', 'null', '[]', '"str"', '12', ' ', '\n\t', 'NaN',
    '{"a":NaN}', '{"a":Infinity}', '{/* c */}', '{"a":1}{"b":2}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}',
    '{"a":"\\ud800"}', '{"a":"\\u0000"}', '{"a":1e309}', '{"\\u0061":1,"a":2}', 'true', '{"":1}', '{"a":"\u0000"}',
  ),
  fc.integer({ min: 1, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1, max: 5000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.constantFrom(
    [0xff, 0xfe],
    [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d],
    [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d],
    [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d],
    [0x7b, 0x22, 0xf8, 0x88, 0x80, 0x80, 0x80, 0x22, 0x3a, 0x31, 0x7d],
  ).map((b) => new Uint8Array(b)),
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom(1, 2, 3).map(() => JSON.stringify({ companyName: 'x'.repeat(1024 * 1024) })),
)

/**
 * A JSON object: built from real, case-changed and unknown names with hostile values, now and
 * then with a name twice; or one or two real names with values of the right type, so that
 * hostile content gets past the type checks to the database.
 */
export function objectBody(names: readonly string[], value: (name: string, hostile: boolean) => fc.Arbitrary<Json>): fc.Arbitrary<string> {
  const known = names.length ? names : ['name']
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.constantFrom(...known).chain((n) => fc.mixedCase(fc.constant(n))) },
    { weight: 1, arbitrary: fc.constantFrom('', '__proto__', 'constructor', 'toString', 'id ', 'ID', 'nickname', '$where', 'a.b') },
    { weight: 1, arbitrary: hostileString },
  )
  const entry = name.chain((n) => value(n, true).map((v): [string, Json] => [n, v]))
  const hostile = fc
    .tuple(fc.array(entry, { maxLength: 6 }), fc.nat({ max: 7 }), fc.nat())
    .map(([entries, dup, i]) => {
      const obj = dup === 0 && entries.length ? [...entries, entries[i % entries.length]] : entries
      return toJsonText({ obj })
    })
  const plausible = fc
    .array(fc.constantFrom(...known).chain((n) => value(n, false).map((v): [string, Json] => [n, v])), { minLength: 1, maxLength: 2 })
    .map((obj) => toJsonText({ obj }))
  return fc.oneof(hostile, plausible)
}
