import { readFileSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { callClasses, customerDefault } from '../../core/fields/call-classes.js'
import { catalogue, resources } from '../../core/fields/catalogue.js'
import type { WireType } from '../../core/fields/field.js'
import { resourceNames, type Resource } from '../../core/fields/resource.js'
import { defaultLists } from '../../core/presets/default-presets.js'

const test = suite('core/fields catalogue')

interface SpecRow {
  readonly name: string
  readonly type: string
}

/** The field tables of billing-api.md, by collection: `### Customer (`customers`)` and its rows. */
function parseSpec(markdown: string): Map<string, SpecRow[]> {
  const sections = new Map<string, SpecRow[]>()
  let rows: SpecRow[] | undefined
  for (const line of markdown.split('\n')) {
    const heading = /^### .+ \(`(\w+)`\)\s*$/.exec(line)
    if (heading) {
      rows = []
      sections.set(heading[1], rows)
      continue
    }
    if (line.startsWith('#')) rows = undefined
    if (!rows || !line.startsWith('|')) continue
    const [names, type] = line.split('|').slice(1, -1).map((c) => c.trim())
    if (names === 'Field' || /^-+$/.test(names)) continue
    for (const name of names.split(',').map((n) => n.trim())) rows.push({ name, type })
  }
  return sections
}

const spec = parseSpec(readFileSync(new URL('../../docs/spec/billing-api.md', import.meta.url), 'utf8'))

const wireTypeOf: Record<string, WireType> = {
  Text: 'text',
  Number: 'number',
  Currency: 'currency',
  Date: 'date',
  'Preset Value': 'preset',
  'Preset Value(s)': 'presets',
}

/** Types the contract fixes where the specification's table says otherwise or nothing. */
const exceptions: Record<string, WireType> = {
  // contract 4 and 9.6: it holds the source tariff's ID and is not a preset
  'fixedFeeTariffs.increaseOriginalID': 'id',
  // the call tariff's row says "not shown"; contract 9.6 puts the same four fields on both kinds
  'tariffs.increaseOriginalID': 'id',
  'tariffs.increasePercent': 'number',
  'tariffs.increaseEffectiveDate': 'date',
  'tariffs.increaseScope': 'preset',
}

function expectedType(resource: string, row: SpecRow): WireType {
  const fixed = exceptions[`${resource}.${row.name}`]
  if (fixed) return fixed
  const type = wireTypeOf[row.type]
  if (!type) throw new Error(`${resource}.${row.name}: unknown spec type "${row.type}"`)
  // Text IDs (`id`, `customerID`) are IDs: positive integers written as strings (contract 2)
  return type === 'text' && (row.name === 'id' || row.name.endsWith('ID')) ? 'id' : type
}

const resourceOf = (name: string): Resource => (catalogue as Record<string, Resource>)[name]

test('the spec parser finds every resource table of billing-api.md', () => {
  assert.equal(
    [...spec.keys()].sort(),
    ['customerContacts', 'customers', 'disasterRecoveryFiles', 'features', 'fixedFeeTariffs', 'numbers', 'services', 'tariffs'],
  )
  for (const [name, rows] of spec) assert.ok(rows.length >= 5, `${name}: only ${rows.length} rows parsed`)
  assert.ok(spec.get('customers')!.some((r) => r.name === 'address5'), 'comma-separated names are expanded')
})

test('every field of the specification is catalogued with its wire type', () => {
  for (const [name, rows] of spec) {
    const resource = resourceOf(name)
    assert.ok(resource, `${name} is not in the catalogue`)
    for (const row of rows) {
      const f = resource.byName.get(row.name)
      assert.ok(f, `${name}.${row.name} is missing`)
      assert.is(f!.type, expectedType(name, row), `${name}.${row.name}: wire type`)
      assert.not.ok(f!.internal || f!.extension, `${name}.${row.name} is in the spec, so neither internal nor an extension`)
    }
  }
})

test('spec fields keep the specification order; additions are marked extension or internal', () => {
  // A feature's updatedDate is maintained by actions, so it sits with the other status fields.
  const movable = new Set(['features.updatedDate'])
  for (const [name, rows] of spec) {
    const inSpec = new Set(rows.map((r) => r.name))
    const specOrder = rows.map((r) => r.name).filter((n) => !movable.has(`${name}.${n}`))
    const ours = resourceOf(name).fields.map((f) => f.name).filter((n) => inSpec.has(n) && !movable.has(`${name}.${n}`))
    assert.equal(ours, specOrder, `${name}: field order`)
    for (const f of resourceOf(name).fields) {
      if (!inSpec.has(f.name)) assert.ok(f.extension || f.internal, `${name}.${f.name} is not in the spec: mark it extension`)
    }
  }
})

test('the catalogue holds every resource once, under its own name and table', () => {
  assert.equal(Object.keys(catalogue).sort(), [...resourceNames].sort())
  for (const [key, r] of Object.entries(catalogue)) assert.is(r.name, key)
  const tables = resources.map((r) => r.table)
  assert.is(new Set(tables).size, tables.length, 'table names are unique')
})

test('no resource describes a field twice', () => {
  for (const r of resources) {
    const names = r.fields.map((f) => f.name)
    assert.is(new Set(names).size, names.length, `${r.name} has duplicate field names`)
    assert.is(r.byName.size, names.length)
  }
})

test('every resource has a read-only id and the system stamps the *Since filters use', () => {
  for (const r of resources) {
    assert.is(r.byName.get('id')?.type, 'id', `${r.name}.id`)
    assert.ok(r.byName.get('id')?.readOnly, `${r.name}.id is read-only`)
    for (const s of ['createdStamp', 'updatedStamp']) {
      assert.is(r.byName.get(s)?.type, 'datetime', `${r.name}.${s}`)
      assert.ok(r.byName.get(s)?.readOnly, `${r.name}.${s} is read-only`)
    }
  }
})

test('every preset list a field names exists in the default presets', () => {
  for (const r of resources) {
    for (const f of r.fields) {
      if (f.list !== undefined) assert.ok(f.list in defaultLists, `${r.name}.${f.name}: no preset list "${f.list}"`)
      if (f.type !== 'preset' && f.type !== 'presets') {
        assert.is(f.list, undefined, `${r.name}.${f.name}: only preset fields have a list`)
        continue
      }
      // invoices' and credit notes' transactionIDs are arrays of IDs that only the platform writes: no list
      if ((r.name === 'invoices' || r.name === 'creditNotes') && f.name === 'transactionIDs') continue
      assert.ok((f.list === undefined) !== (f.ref === undefined), `${r.name}.${f.name}: a list or a tariff reference`)
    }
  }
  assert.equal(defaultLists.timeBands, ['day', 'evening', 'weekend', 'any'])
  assert.equal(defaultLists.billingRunStatuses, ['Pending', 'Requested', 'Running', 'Review', 'Approved', 'Complete', 'Discarded', 'Failed'])
})

test('tariff fields name existing tariffs instead of a configured list', () => {
  const callTariffFields = callClasses.map((c) => c.tariff)
  const checks: [Resource, string[]][] = [
    [catalogue.customers, callTariffFields.map(customerDefault)],
    [catalogue.numbers, callTariffFields],
    [catalogue.features, callTariffFields],
  ]
  for (const [r, names] of checks) {
    for (const n of names) assert.is(r.byName.get(n)?.ref, 'tariffs', `${r.name}.${n}`)
  }
  for (const r of [catalogue.customers, catalogue.numbers, catalogue.services, catalogue.features]) {
    assert.is(r.byName.get('fixedFeeTariff')?.ref, 'fixedFeeTariffs', `${r.name}.fixedFeeTariff`)
  }
})

test('the fields the contract makes read-only are read-only (contract 2, 5.5, 6, 9.6)', () => {
  const readOnly: Record<string, string[]> = {
    numbers: ['customerID', 'status', 'statusReason', 'statusChangedStamp', 'updatedDate', 'isDropped', 'isSuspended', 'isBillable'],
    services: ['customerID', 'status', 'statusReason', 'statusChangedStamp', 'updatedDate', 'isDropped'],
    // A feature's updatedDate is writable: the date a charge change takes effect (contract 17.5).
    features: ['customerID', 'numberID', 'serviceID', 'billToDate', 'totalValueCharged', 'totalValueRemaining', 'dueDate'],
    tariffs: ['increaseOriginalID', 'increasePercent', 'increaseEffectiveDate', 'increaseScope'],
    fixedFeeTariffs: ['increaseOriginalID', 'increasePercent', 'increaseEffectiveDate', 'increaseScope'],
    customerContacts: ['customerID'],
    tariffDetails: ['tariffID'],
    fixedFeeTariffDetails: ['fixedFeeTariffID'],
    transactions: ['customerID', 'VATAmount', 'approved', 'invoiceID', 'billingRunID'],
    billingRuns: ['invoiceAmount', 'invoiceCount', 'commencedDate', 'completedDate'],
  }
  for (const [name, fields] of Object.entries(readOnly)) {
    for (const n of fields) assert.ok(resourceOf(name).byName.get(n)?.readOnly, `${name}.${n} is read-only`)
  }
  for (const name of ['invoices', 'calls', 'disasterRecoveryFiles']) {
    for (const f of resourceOf(name).fields) assert.ok(f.readOnly, `${name}.${f.name}: only the platform writes it`)
  }
  // clients may attach a manual transaction to a number, service or feature; a call tariff may name its customer
  for (const n of ['numberID', 'serviceID', 'featureID']) assert.not.ok(catalogue.transactions.byName.get(n)?.readOnly, n)
  assert.not.ok(catalogue.tariffs.byName.get('customerID')?.readOnly)
  assert.ok(catalogue.customerContacts.byName.get('accountPassword')?.writeOnly, 'accountPassword is write-only')
  for (const n of ['status', 'statusReason']) assert.ok(catalogue.numbers.byName.get(n)?.createOnly, `${n} may be given on create`)
})

test('values derived from the ledger are computed, not stored', () => {
  for (const n of ['totalValueCharged', 'totalValueRemaining', 'dueDate']) {
    assert.ok(catalogue.features.byName.get(n)?.computed, `features.${n}`)
    assert.not.ok(catalogue.features.columns.some((f) => f.name === n), `features.${n} has no column`)
  }
})

test('unique fields: CRM references, account numbers and tariff names', () => {
  for (const r of [catalogue.customers, catalogue.numbers, catalogue.services, catalogue.features]) {
    assert.ok(r.byName.get('CRMReference')?.unique, `${r.name}.CRMReference`)
  }
  assert.ok(catalogue.customers.byName.get('accountNumber')?.unique)
  assert.ok(catalogue.tariffs.byName.get('name')?.unique)
  assert.ok(catalogue.fixedFeeTariffs.byName.get('name')?.unique)
})

test('every list filter selects on a stored column of its resource', () => {
  for (const r of resources) {
    const names = r.filters.map((f) => f.name)
    assert.is(new Set(names).size, names.length, `${r.name}: duplicate filter names`)
    for (const { name, filter } of r.filters) {
      assert.ok(
        r.columns.some((c) => c.name === filter.column),
        `${r.name} filter ${name}: no column ${filter.column}`,
      )
    }
  }
  const filtersOf = (r: Resource) => r.filters.map((f) => f.name).sort()
  const lifecycle = ['CRMReference', 'active', 'dropped', 'droppedSince', 'reinstatedSince']
  assert.equal(filtersOf(catalogue.numbers), [...lifecycle, 'number', 'numberType'].sort())
  assert.equal(filtersOf(catalogue.services), [...lifecycle, 'serviceType'].sort())
  assert.equal(filtersOf(catalogue.features), [...lifecycle, 'featureType'].sort())
  assert.equal(filtersOf(catalogue.customerContacts), ['dealerCode'])
  assert.equal(filtersOf(catalogue.transactions), ['approved', 'dateFrom', 'dateTo', 'transactionType'])
  assert.equal(catalogue.numbers.filters.find((f) => f.name === 'number')?.filter, { kind: 'digits', column: 'number' })
})

test.run()
