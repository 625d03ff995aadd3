import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import type { DateOnly } from '../../core/dates/date-only.js'
import { rateUnratedCalls } from '../../core/rating/rate-unrated-calls.js'

// A number's terms for each CDR number (billing-api.md, numbers): its direction, origination type
// and charge band. Wed 2026-01-14 10:00 UTC is day time; 61 s rounds up to 2 minutes.
const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,origination'
const csv = (...rows: string[]) => [header, ...rows].join('\n') + '\n'
const post = async (h: Harness, path: string, body: string) => {
  const r = await h.request('POST', path, undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body
}
const created = async (h: Harness, path: string, body: Record<string, unknown>) => {
  const r = await h.request('POST', path, body)
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body.id as string
}
/** The calls a file stored, by calling number: [numberID, chargeBand, origination, cost, unbilledReason]. */
async function calls(h: Harness, usageFileID: string): Promise<Record<string, unknown[]>> {
  const all = (await h.request('GET', '/calls?limit=1000')).body.filter((c: any) => c.usageFileID === usageFileID)
  return Object.fromEntries(all.map((c: any) => [c.callingNumber, [c.numberID, c.chargeBand, c.origination, c.cost, c.unbilledReason]]))
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`rating by a CDR number's terms [${target}]`)
  test.before(async (ctx) => {
    const h = (ctx.h = await openHarness(target))
    const tariff = await created(h, '/tariffs', { name: 'CDR terms', baseRoundSeconds: 60, baseSurchargeMobileOrigination: 0.5 })
    await created(h, `/tariffs/${tariff}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.05' })
    await created(h, `/tariffs/${tariff}/tariffDetails`, { chargeBand: 'PREM', timeBand: 'any', cost: '1.00' })
    // Records without a band take NAT from the default destination table (contract 17.2).
    const table = await created(h, '/destinationTables', { name: 'default' })
    await post(h, `/destinationTables/${table}/destinations`, 'prefix,chargeBand,callClass\n44,NAT,national\n')
  })
  test.after(async (ctx) => ctx.h.close())

  test("a call through a CDR number takes its charge band and origination; one of the wrong direction is not the number's", async ({ h }) => {
    const customer = await created(h, '/customers', { defaultNationalTariff: 'CDR terms', defaultInboundTariff: 'CDR terms' })
    const number = await created(h, `/customers/${customer}/numbers`, {
      number: '01632 980001',
      CDRNumber2: '01632 980002',
      CDRNumberChargeBand2: 'PREM',
      useCallTypeOriginationTypeFlag2: 'Mobile',
      CDRNumber3: '01632 980003',
      CDRNumberCallTypeDirectionFlag3: 'Outbound',
      CDRNumber: '01632 980005',
      CDRNumberCallTypeDirectionFlag: 'Inbound',
    })
    // Claims 01632 980005 too, after the first number's CDRNumber, for both directions.
    const other = await created(h, `/customers/${customer}/numbers`, { number: '01632 980006', CDRNumber4: '01632 980005' })
    const calling = (digits: string, band: string) => `${digits},01632960999,2026-01-14T10:00:00Z,61,${band},national,Gamma,fixed`
    const inbound = (from: string, to: string) => `${from},${to},2026-01-14T10:01:00Z,61,NAT,inbound,Gamma,fixed`
    const first = await post(
      h,
      '/usageFiles?name=cdr.csv',
      csv(calling('01632980002', 'NAT'), calling('01632980003', 'NAT'), inbound('07700900001', '01632980003'), calling('01632980005', 'NAT'), inbound('07700900002', '01632980005')),
    )
    assert.equal(await calls(h, first.id), {
      // CDRNumber2: PREM 1.00 × 2 + the mobile surcharge 0.50 × 2, not NAT 0.05 × 2 as a fixed call
      '01632980002': [number, 'PREM', 'mobile', 3, null],
      // CDRNumber3 is the outbound leg only: its outbound call is the number's, its inbound call nobody's
      '01632980003': [number, 'NAT', 'fixed', 0.1, null],
      '07700900001': [null, 'NAT', 'fixed', null, 'no matching number'],
      // the first number's CDRNumber is its inbound leg only: the outbound call goes to the other number's CDRNumber4
      '07700900002': [number, 'NAT', 'fixed', 0.1, null],
      '01632980005': [other, 'NAT', 'fixed', 0.1, null],
    })
    // The same with the number's own digits in the batch, and a band from the destination table.
    const second = await post(
      h,
      '/usageFiles?name=cdr2.csv',
      csv(`01632980001,01632960999,2026-01-14T11:00:00Z,61,NAT,national,Gamma,payphone`, `01632980002,01632960999,2026-01-14T11:00:00Z,61,,national,Gamma,fixed`),
    )
    assert.equal(await calls(h, second.id), {
      '01632980001': [number, 'NAT', 'payphone', 0.1, null],
      '01632980002': [number, 'PREM', 'mobile', 3, null],
    })
  })
  test('a call rated later (a run rates the unrated first) takes the terms of the CDR number it matches then', async ({ h }) => {
    const file = await post(h, '/usageFiles?name=early.csv', csv('01632980012,01632960999,2026-01-14T10:00:00Z,61,NAT,national,Gamma,fixed'))
    const customer = await created(h, '/customers', { defaultNationalTariff: 'CDR terms' })
    const number = await created(h, `/customers/${customer}/numbers`, { number: '01632 980011', CDRNumber2: '01632 980012', CDRNumberChargeBand2: 'PREM', useCallTypeOriginationTypeFlag2: 'Mobile' })
    assert.equal(await calls(h, file.id), { '01632980012': [null, 'NAT', 'fixed', null, 'no matching number'] })
    await rateUnratedCalls(h.platform.context, '2026-01-31' as DateOnly)
    assert.equal(await calls(h, file.id), { '01632980012': [number, 'PREM', 'mobile', 3, null] })
  })

  test.run()
}
