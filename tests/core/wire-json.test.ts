import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { resources } from '../../core/fields/catalogue.js'
import type { Field } from '../../core/fields/field.js'
import type { Item } from '../../core/fields/item.js'
import { toWire } from '../../core/fields/wire.js'
import { joinPieces, withMemberPieces } from '../../adapters/http/json-pieces.js'
import { toWireJson } from '../../core/fields/wire-json.js'
import { valueOfType } from '../support/field-arbitraries.js'

const test = suite('core/fields wire JSON')

/** Text with what JSON must escape: quotes, backslashes, control characters, lone surrogates. */
const awkwardText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', '\ud800', 'a\udc00b', '😀', '</script>'),
)

function valueOf(f: Field): fc.Arbitrary<unknown> {
  // NaN and infinities too: JSON has no such numbers, and the writer must say null as JSON.stringify does.
  const some = f.type === 'number' ? fc.oneof(fc.double(), valueOfType(f, awkwardText)) : valueOfType(f, awkwardText)
  return fc.oneof({ weight: 3, arbitrary: some }, fc.constant(null), fc.constant(undefined))
}

for (const resource of resources) {
  const item = fc.record(Object.fromEntries(resource.fields.map((f) => [f.name, valueOf(f)]))) as fc.Arbitrary<Item>
  test(`${resource.name}: the JSON text is JSON.stringify of the wire object, for any item`, () => {
    fc.assert(
      fc.property(item, (i) => {
        assert.is(toWireJson(resource, i), JSON.stringify(toWire(resource, i)))
      }),
      { numRuns: 200 },
    )
  })
}

test('members added after the fields are the same as properties added to the object', () => {
  const customers = resources.find((r) => r.name === 'customers')!
  const item = { id: '7', accountNumber: 'A"1' } as unknown as Item
  const numbers = '[{"id":"1"}]'
  const expected = JSON.stringify({ ...toWire(customers, item), numbers: [{ id: '1' }], 'odd "name"': [] })
  // HTTP adds expansions to the bytes the database wrote (adapters/http/json-pieces.ts).
  const withMembers = (object: string, extra: [string, string][]) =>
    joinPieces(withMemberPieces(Buffer.from(object), extra.map(([name, json]) => [name, [Buffer.from(json)]] as const))).toString()
  assert.is(withMembers(toWireJson(customers, item), [['numbers', numbers], ['odd "name"', '[]']]), expected)
  assert.is(withMembers('{"a":1}', []), '{"a":1}')
})

test.run()
