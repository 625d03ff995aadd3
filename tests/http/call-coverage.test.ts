import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import { bill } from '../support/billing.js'

/**
 * A billing run bills calls without writing them (docs/scaling.md): a call's `transactionID` is
 * derived from the `Call Charges` row that covers it, and what a later run bills (a late file, a
 * restored call) goes to that run's row, not to the earlier one whose range it falls in.
 */
const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const csv = (...rows: string[]) => [header, ...rows].join('\n') + '\n'
const upload = async (h: Harness, body: string) => {
  const r = await h.request('POST', '/usageFiles?name=calls.csv', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
  assert.is(r.status, 201, JSON.stringify(r.body))
}
let serial = 0
const digitsOf = () => `016329${String(80000 + ++serial).padStart(5, '0')}`
const callsOf = async (h: Harness, number: string) =>
  ((await h.request('GET', `/numbers/${number}/calls?limit=1000`)).body as any[]).map((c) => [c.startTime.slice(0, 10), c.deleted, c.transactionID])
const callCharges = async (h: Harness, customer: string) =>
  (await h.request('GET', `/customers/${customer}/transactions?transactionType=Call%20Charges`)).body as any[]

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; tariff: string }>(`calls billed without being written [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-01T10:00:00.000Z' })
    const t = await ctx.h.request('POST', '/tariffs', { name: 'Coverage', baseRoundSeconds: 60 })
    await ctx.h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.05' })
    ctx.tariff = 'Coverage'
  })
  test.after(async (ctx) => ctx.h.close())

  test('a run leaves its calls as they were; late and restored calls in its range go to the next run', async ({ h, tariff }) => {
    const customer = (await h.request('POST', '/customers', { defaultNationalTariff: tariff })).body.id
    const digits = digitsOf()
    const number = (await h.request('POST', `/customers/${customer}/numbers`, { number: digits })).body.id
    const call = (day: string) => `${digits},01632960999,2026-01-${day}T10:00:00Z,61,NAT,national,Gamma`
    await upload(h, csv(call('10'), call('12'), call('20')))
    const [, deleted] = (await h.request('GET', `/numbers/${number}/calls`)).body
    assert.is((await h.request('DELETE', `/calls/${deleted.id}`)).status, 200)
    const before = await sql<{ id: unknown; updatedStamp: string; transactionID: unknown }>`select id, ${sql.ref('updatedStamp')}, ${sql.ref('transactionID')} from calls order by id`.execute(h.platform.database.db)

    await bill(h, '2026-01-31')
    const [first] = await callCharges(h, customer)
    assert.equal([first.quantity, first.amount, first.dateFrom, first.dateTo], [2, 0.2, '2026-01-10', '2026-01-20'])
    assert.equal(await callsOf(h, number), [['2026-01-10', false, first.id], ['2026-01-12', true, null], ['2026-01-20', false, first.id]])
    const after = await sql`select id, ${sql.ref('updatedStamp')}, ${sql.ref('transactionID')} from calls order by id`.execute(h.platform.database.db)
    assert.equal(after.rows, before.rows, 'the run wrote no call')

    // A late call inside the billed range, and the deleted call restored: unbilled until the next run.
    await upload(h, csv(call('15')))
    assert.is((await h.request('POST', `/customers/${customer}?action=restoreCalls`, {})).status, 200)
    assert.equal(await callsOf(h, number), [['2026-01-10', false, first.id], ['2026-01-12', false, null], ['2026-01-20', false, first.id], ['2026-01-15', false, null]])
    const portal = await h.request('GET', `/customers/${customer}/calls?deleted=false`)
    assert.is(portal.body.filter((c: any) => c.transactionID === null).length, 2)

    await bill(h, '2026-01-31')
    const rows = await callCharges(h, customer)
    assert.is(rows.length, 2)
    const second = rows.find((t: any) => t.id !== first.id)
    assert.equal([second.quantity, second.amount, second.dateFrom, second.dateTo], [2, 0.1 + 0.1, '2026-01-12', '2026-01-15'])
    assert.equal(await callsOf(h, number), [['2026-01-10', false, first.id], ['2026-01-12', false, second.id], ['2026-01-20', false, first.id], ['2026-01-15', false, second.id]])
    const late = (await h.request('GET', `/numbers/${number}/calls`)).body.at(-1)
    assert.is((await h.request('GET', `/calls/${late.id}`)).body.transactionID, second.id)
    assert.is((await h.request('DELETE', `/calls/${late.id}`)).body.error_code, 400502, 'a call billed by the later run cannot be deleted')
    // Each invoice itemises its own run's calls.
    assert.is(first.invoiceID === second.invoiceID, false)
  })

  test('calls of a number left unbilled while it was not billable are billed by a later run, which reads from where the last one left them', async ({ h, tariff }) => {
    const customer = (await h.request('POST', '/customers', { defaultNationalTariff: tariff })).body.id
    const digits = digitsOf()
    const number = (await h.request('POST', `/customers/${customer}/numbers`, { number: digits })).body.id
    await upload(h, csv(`${digits},01632960999,2026-01-10T10:00:00Z,61,NAT,national,Gamma`))
    const off = await h.request('POST', `/numbers/${number}?action=makeNonBillable`, { status: 'Non-Billable', dateMakeNonBillable: '2026-01-01' })
    assert.is(off.status, 200, JSON.stringify(off.body))
    await bill(h, '2026-01-31')
    await bill(h, '2026-02-28')
    assert.equal(await callCharges(h, customer), [])
    const on = await h.request('POST', `/numbers/${number}?action=makeBillable`, { status: 'Active', dateMakeBillable: '2026-03-01' })
    assert.is(on.status, 200, JSON.stringify(on.body))
    await bill(h, '2026-03-31')
    const [row] = await callCharges(h, customer)
    assert.equal([row.quantity, row.dateFrom], [1, '2026-01-10'])
    assert.equal(await callsOf(h, number), [['2026-01-10', false, row.id]])
    // The notes of where runs read from are kept only from the last completed run's mark on.
    const db = h.platform.database.db
    const marks = (await sql<{ mark: unknown }>`select ${sql.ref('callMark')} as mark from billing_runs where status = 'Complete' order by ${sql.ref('callMark')}`.execute(db)).rows.map((r) => Number(r.mark))
    const notes = (await sql<{ mark: unknown }>`select mark from call_mark_starts`.execute(db)).rows.map((r) => Number(r.mark))
    assert.ok(marks.length >= 3)
    assert.equal(notes.filter((m) => m < marks.at(-2)!), [], `notes below the mark of the run before the last (${marks.at(-2)}) are forgotten: ${notes}`)
  })

  test("a number's calls split by VAT rate each name their own row", async ({ h, tariff }) => {
    const customer = (await h.request('POST', '/customers', { defaultNationalTariff: tariff, VATRateCalls: 'Standard 20%' })).body.id
    const digits = digitsOf()
    const number = (await h.request('POST', `/customers/${customer}/numbers`, { number: digits })).body.id
    const bundle = await h.request('POST', '/tariffs', { name: 'Coverage bundle', baseRoundSeconds: 60 })
    await h.request('POST', `/tariffs/${bundle.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.05' })
    const f = await h.request('POST', `/numbers/${number}/features`, { featureType: 'SIP Channel', startDate: '2026-01-15', nationalTariff: 'Coverage bundle', VATRateCalls: 'Reduced 5%' })
    assert.is(f.status, 201, JSON.stringify(f.body))
    // Interleaved in time: before the feature's start at 20 %, after it at 5 %, then 20 % again
    // for a mobile call the feature does not price (the customer's tariff prices it).
    const m = await h.request('POST', '/tariffs', { name: 'Coverage mobile', baseRoundSeconds: 60 })
    await h.request('POST', `/tariffs/${m.body.id}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'any', cost: '0.10' })
    await h.request('PATCH', `/customers/${customer}`, { defaultMobileTariff: 'Coverage mobile' })
    await upload(
      h,
      csv(
        `${digits},01632960999,2026-01-14T10:00:00Z,61,NAT,national,Gamma`,
        `${digits},01632960999,2026-01-20T10:00:00Z,61,NAT,national,Gamma`,
        `${digits},07700900999,2026-01-21T10:00:00Z,61,MOB,mobile,Gamma`,
        `${digits},01632960999,2026-01-22T10:00:00Z,61,NAT,national,Gamma`,
      ),
    )
    await bill(h, '2026-01-31')
    const rows = await callCharges(h, customer)
    const at = (rate: string) => rows.find((t: any) => t.VATRate === rate).id
    assert.equal(
      ((await h.request('GET', `/numbers/${number}/calls`)).body as any[]).map((c) => c.transactionID),
      [at('Standard 20%'), at('Reduced 5%'), at('Standard 20%'), at('Reduced 5%')],
    )
  })

  test.run()
}
