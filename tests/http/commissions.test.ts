import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import { brief, statements } from '../support/commission-statements.js'
import { commissionStatements } from '../../core/reports/commission-statement.js'

/**
 * Contract 16.3, worked by hand: a Percentage commission on a discounted charge, a Fixed one
 * pro-rated, a secondary holder, a profile's percentage from the reference date, and the
 * clawback of a drop's refund, of an adjustment refund and of a credit note in the next run's
 * statement, from the holder and terms the charge earned on.
 */

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`commission statements (contract 16.3) [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-31T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('percentage of a discounted charge, fixed pro-rated, secondary holder, reference date; clawback in the next run', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'C-1', commissionHolder: 'Alice Morgan', saleType: 'New Business' })
    // A: 50.00 a month less 10 % (First Year): Alice 10 % of the net, Ben 3.00 fixed per charge row.
    const a = await newFeature(h, c, {
      startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '50.00', initialFeatureDiscountScheme: '10% First Year',
      serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage',
      commissionHolderID2: 'Ben Carter', serviceChargeCommission2: '3.00', serviceChargeCommissionType2: 'Fixed Amount',
    })
    // B: 31.00 from 11 January, Alice 6.20 fixed: 21 of 31 days → 21.00 charged, 4.20 commission.
    const b = await newFeature(h, c, { startDate: '2026-01-11', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '31.00', serviceChargeCommission: '6.20', serviceChargeCommissionType: 'Fixed Amount' })
    // D: Chloe's customer earns from 1 February only, by the Standard Dealer profile (5 %).
    const d = await newCustomer(h, { accountNumber: 'D-1', commissionHolder: 'Chloe Davies', commissionReferenceDate: '2026-02-01' })
    const fd = await newFeature(h, d, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '20.00', serviceChargeCommissionProfile: 'Standard Dealer' })
    const jan = await bill(h, '2026-01-31')

    let [alice] = await statements(h, `billingRunID=${jan.id}&holder=Alice%20Morgan`)
    assert.equal(brief(alice.lines), [
      [a, 'Recurring Charge', 'Percentage', 50, 10, 5],
      [a, 'Recurring Charge Discount', 'Percentage', -5, 10, -0.5], // 10 % of the discounted 45.00: 4.50
      [b, 'Recurring Charge', 'Fixed Amount', 21, 6.2, 4.2],
    ])
    assert.is(alice.total, 8.7)
    assert.equal([alice.lines[0].customerID, alice.lines[0].accountNumber, alice.lines[0].saleType, alice.lines[0].role], [c, 'C-1', 'New Business', 'primary'])
    let [ben] = await statements(h, `billingRunID=${jan.id}&holder=Ben%20Carter`)
    assert.equal([brief(ben.lines), ben.total, ben.lines[0].role], [[[a, 'Recurring Charge', 'Fixed Amount', 50, 3, 3]], 3, 'secondary'])
    const all = await statements(h, `billingRunID=${jan.id}`)
    assert.equal(all.map((s) => [s.holder, s.total]), [['Alice Morgan', 8.7], ['Ben Carter', 3]], 'Chloe earns nothing before her reference date')

    // B dropped with bill-to 20 January: its 21.00 refunded (−4.20) and 10 days charged again, 10.00 (2.00).
    await act(h, `/features/${b}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-20' })
    // A credit note of 20.00 of A's January charge: Alice 10 % back (−2.00), Ben 20/50 of his 3.00 (−1.20).
    h.clock.set('2026-02-10T09:00:00Z')
    const [invoice] = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
    const charge = ((await h.request('GET', `/features/${a}/transactions`)).body as any[]).find((t) => t.transactionType === 'Recurring Charge')
    const note = await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'goodwill', lines: [{ transactionID: charge.id, amount: '20.00' }] })
    assert.is(note.status, 201, JSON.stringify(note.body))
    h.clock.set('2026-02-28T09:00:00Z')
    const feb = await bill(h, '2026-02-28')

    ;[alice] = await statements(h, `billingRunID=${feb.id}&holder=Alice%20Morgan`)
    // In transaction order: the drop wrote B's rows before the run wrote A's.
    assert.equal(brief(alice.lines), [
      [b, 'Recurring Charge Refund', 'Fixed Amount', -21, 6.2, -4.2],
      [b, 'Recurring Charge', 'Fixed Amount', 10, 6.2, 2],
      [a, 'Recurring Charge', 'Percentage', 50, 10, 5],
      [a, 'Recurring Charge Discount', 'Percentage', -5, 10, -0.5],
      [a, 'Credit Note', 'Percentage', -20, 10, -2],
    ])
    assert.is(alice.total, 0.3)
    ;[ben] = await statements(h, `billingRunID=${feb.id}&holder=Ben%20Carter`)
    assert.equal([brief(ben.lines), ben.total], [[[a, 'Recurring Charge', 'Fixed Amount', 50, 3, 3], [a, 'Credit Note', 'Fixed Amount', -20, 3, -1.2]], 1.8])
    const [chloe] = await statements(h, `billingRunID=${feb.id}&holder=Chloe%20Davies`)
    assert.equal([brief(chloe.lines), chloe.total], [[[fd, 'Recurring Charge', 'Percentage', 20, 5, 1]], 1])

    const csv = (await h.request('GET', `/commissionStatements?billingRunID=${feb.id}&holder=Ben%20Carter`, undefined, { headers: { accept: 'text/csv' } })).text.trim().split('\r\n')
    assert.is(csv[0], 'holder,role,customerID,accountNumber,featureID,saleType,transactionID,transactionType,type,basis,rate,commission,currency')
    // A total line per currency (here one), then the statement's.
    assert.is(csv.length, 5)
    assert.equal(csv.slice(3), ['Ben Carter,total,,,,,,,,,,1.8,GBP', 'Ben Carter,total,,,,,,,,,,1.8,'])
  })

  test('the CSV statement neutralises text a spreadsheet would run (a leading \'), and keeps a negative commission numeric', async ({ h }) => {
    const hostile = '=HYPERLINK("http://evil","x")'
    const c = await newCustomer(h, { accountNumber: hostile, commissionHolder: 'Alice Morgan' })
    // 50.00 less 10 % (First Year): Alice 10 % of each, the discount's -0.50 clawed back.
    const a = await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '50.00', initialFeatureDiscountScheme: '10% First Year', serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage' })
    const run = await bill(h, '2026-01-31')
    const csv = (await h.request('GET', `/commissionStatements?billingRunID=${run.id}&holder=Alice%20Morgan`, undefined, { headers: { accept: 'text/csv' } })).text.trim().split('\r\n')
    const discount = csv.find((l) => l.includes(',Recurring Charge Discount,'))
    assert.ok(discount?.startsWith(`Alice Morgan,primary,${c},"'=HYPERLINK(""http://evil"",""x"")",${a},`), discount)
    assert.ok(discount?.endsWith(',Recurring Charge Discount,Percentage,-5,10,-0.5,GBP'), discount)
    assert.equal(csv.slice(-2), ['Alice Morgan,total,,,,,,,,,,4.5,GBP', 'Alice Morgan,total,,,,,,,,,,4.5,'])
  })

  test('each credit note is clawed back by one run, the first to complete after it; a completed run\'s statement never changes', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'C-1', commissionHolder: 'Alice Morgan' })
    const a = await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '50.00', serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage' })
    const b = await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '31.00', serviceChargeCommission: '6.20', serviceChargeCommissionType: 'Fixed Amount' })
    const jan = await bill(h, '2026-01-31')
    const alice = async (run: { id: string }) => (await statements(h, `billingRunID=${run.id}&holder=Alice%20Morgan`))[0]
    const janBefore = await alice(jan)
    assert.is(janBefore.total, 11.2)

    // The run's own invoice date, after it completed: a credit note of 20.00 (−2.00) and B dropped with bill-to 20 January (−4.20 + 2.00).
    h.clock.set('2026-01-31T15:00:00Z')
    const [invoice] = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
    const charge = ((await h.request('GET', `/features/${a}/transactions`)).body as any[]).find((t) => t.transactionType === 'Recurring Charge')
    assert.is((await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'goodwill', lines: [{ transactionID: charge.id, amount: '20.00' }] })).status, 201)
    await act(h, `/features/${b}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-20' })
    // A's terms change after January completed: 20 %, and passed to Ben. January's statement, and
    // the clawback of its charge, keep the terms it earned on (Alice, 10 %).
    assert.is((await h.request('PATCH', `/features/${a}`, { serviceChargeCommission: '20', commissionHolder: 'Ben Carter' })).status, 200)
    assert.equal(await alice(jan), janBefore, 'January is complete: its statement stays as it was read')
    assert.equal((await statements(h, `billingRunID=${jan.id}`)).map((s) => [s.holder, s.total]), [['Alice Morgan', 11.2]])

    // Two runs of one date: the first to complete carries the clawbacks, the second none of them.
    h.clock.set('2026-02-28T09:00:00Z')
    const feb = await bill(h, '2026-02-28')
    await newFeature(h, await newCustomer(h, { accountNumber: 'C-2' }), { startDate: '2026-02-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '5.00' })
    const feb2 = await bill(h, '2026-02-28')
    const febLines = (await alice(feb)).lines.filter((l: any) => l.transactionType !== 'Recurring Charge')
    assert.equal(brief(febLines), [
      [b, 'Recurring Charge Refund', 'Fixed Amount', -31, 6.2, -6.2],
      [a, 'Credit Note', 'Percentage', -20, 10, -2],
    ])
    assert.equal([(await alice(feb2)).lines, (await alice(jan)).total], [[], 11.2])
    const [ben] = await statements(h, `billingRunID=${feb.id}&holder=Ben%20Carter`)
    assert.equal(brief(ben.lines), [[a, 'Recurring Charge', 'Percentage', 50, 20, 10]], "February's charge earns on A's terms now")
  })

  test('a refund or adjustment refund claws back from the holder and kept terms its charge earned on, whoever holds the feature at its run', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'C-1' })
    const monthly = (terms: Record<string, unknown>) => newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '31.00', commissionHolder: 'Alice Morgan', ...terms })
    // A keeps its holder; B passes to Ben at 50 %; D (6.20 fixed) is cut by a delta change, then passes to Ben at 9.99 fixed.
    const a = await monthly({ serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage' })
    const b = await monthly({ serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage' })
    const d = await monthly({ serviceChargeCommission: '6.20', serviceChargeCommissionType: 'Fixed Amount' })
    const jan = await bill(h, '2026-01-31')
    const alice = async (run: { id: string }) => (await statements(h, `billingRunID=${run.id}&holder=Alice%20Morgan`))[0]
    assert.equal([brief((await alice(jan)).lines).map((l) => l[5]), (await alice(jan)).total], [[3.1, 3.1, 6.2], 12.4])

    h.clock.set('2026-02-10T09:00:00Z')
    await act(h, `/features/${a}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-10' })
    assert.is((await h.request('PATCH', `/features/${b}`, { commissionHolder: 'Ben Carter', serviceChargeCommission: '50' })).status, 200)
    await act(h, `/features/${b}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-10' })
    await act(h, `/features/${d}`, 'changeRecurringCharge', { serviceCharge: '25.80', dateFrom: '2026-01-01', chargeChangeMode: 'delta' })
    assert.is((await h.request('PATCH', `/features/${d}`, { commissionHolder: 'Ben Carter', serviceChargeCommission: '9.99' })).status, 200)
    h.clock.set('2026-02-28T09:00:00Z')
    const feb = await bill(h, '2026-02-28')
    // A's refund takes back Alice's 3.10 as before (her holder never changed); B's too, at her 10 %, not
    // 15.50 of Ben's; D's 5.20 adjustment refund 6.20 × 5.20 / 31 = 1.04 of hers. Ben earns on the charges since.
    const expected = {
      alice: [
        [a, 'Recurring Charge Refund', 'Percentage', -31, 10, -3.1],
        [a, 'Recurring Charge', 'Percentage', 10, 10, 1],
        [b, 'Recurring Charge Refund', 'Percentage', -31, 10, -3.1],
        [d, 'Recurring Charge Adjustment Refund', 'Fixed Amount', -5.2, 6.2, -1.04],
      ],
      ben: [
        [b, 'Recurring Charge', 'Percentage', 10, 50, 5],
        [d, 'Recurring Charge', 'Fixed Amount', 25.8, 9.99, 9.99],
      ],
    }
    assert.equal(brief((await alice(feb)).lines), expected.alice)
    assert.equal((await statements(h, `billingRunID=${feb.id}`)).map((s) => [s.holder, brief(s.lines), s.total]), [['Alice Morgan', expected.alice, -6.24], ['Ben Carter', expected.ben, 14.99]])
    // The same from the features' terms now, as a run not yet complete reads them.
    const live = async (run: { id: string }) => {
      const out: [string, unknown[][]][] = []
      for await (const s of commissionStatements(h.platform.context, { billingRunID: run.id, complete: false }, null)) {
        const lines: unknown[][] = []
        for await (const page of s.pages) lines.push(...page.map((l) => [l.featureID, l.transactionType, l.type, Number(l.basis) / 10_000, Number(l.rate) / 10_000, Number(l.commission) / 10_000]))
        if (lines.length) out.push([s.holder, lines])
      }
      return out
    }
    assert.equal(await live(feb), [['Alice Morgan', expected.alice], ['Ben Carter', expected.ben]])

    // D dropped back to 10 January, A passed to Chloe: Alice is named nowhere now. What stands of her
    // commission on D's January goes back, 5.16: it has earned her nothing in all (6.20 − 1.04 − 5.16).
    // Ben earns on the 10 days charged again (9.99 × 10 / 31) and gives back his February 9.99.
    h.clock.set('2026-03-05T09:00:00Z')
    assert.is((await h.request('PATCH', `/features/${a}`, { commissionHolder: 'Chloe Davies' })).status, 200)
    await act(h, `/features/${d}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-10' })
    h.clock.set('2026-03-31T09:00:00Z')
    const mar = await bill(h, '2026-03-31')
    const march = [
      ['Alice Morgan', [[d, 'Recurring Charge Refund', 'Fixed Amount', -25.8, 6.2, -5.16]]],
      ['Ben Carter', [[d, 'Recurring Charge', 'Fixed Amount', 8.32, 9.99, 3.22], [d, 'Recurring Charge Refund', 'Fixed Amount', -25.8, 9.99, -9.99]]],
    ]
    assert.equal((await statements(h, `billingRunID=${mar.id}`)).map((s) => [s.holder, brief(s.lines)]), march)
    assert.equal(await live(mar), march)
  })

  test('commission is rounded once to the penny: a percentage of a net, a fixed amount pro-rated, a credit note\'s share', async ({ h }) => {
    h.clock.set('2026-04-30T09:00:00Z')
    const c = await newCustomer(h, { accountNumber: 'R-1', commissionHolder: 'Alice Morgan' })
    // 10.06 at 3.33 %: exactly 0.334998 → 0.33 (not 0.3350 → 0.34).
    const p = await newFeature(h, c, { startDate: '2026-04-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '10.06', serviceChargeCommission: '3.33', serviceChargeCommissionType: 'Percentage' })
    // Calendar Annually from 10 April: 266 of 365 days; 10.01 fixed → exactly 7.294958… → 7.29 (not 7.2950 → 7.30).
    const q = await newFeature(h, c, { startDate: '2026-04-10', serviceChargeInterval: 'Calendar Annually', serviceCharge: '365.00', serviceChargeCommission: '10.01', serviceChargeCommissionType: 'Fixed Amount' })
    // Ben's 3.01 a charge; a credit note of 1.91 of its 50.00 claws back 3.01 × 1.91 / 50 = 0.114982 → 0.11 (not 0.1150 → 0.12).
    const r = await newFeature(h, c, { startDate: '2026-04-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '50.00', commissionHolderID2: 'Ben Carter', serviceChargeCommission2: '3.01', serviceChargeCommissionType2: 'Fixed Amount' })
    const april = await bill(h, '2026-04-30')
    const [alice] = await statements(h, `billingRunID=${april.id}&holder=Alice%20Morgan`)
    assert.equal(brief(alice.lines), [
      [p, 'Recurring Charge', 'Percentage', 10.06, 3.33, 0.33],
      [q, 'Recurring Charge', 'Fixed Amount', 266, 10.01, 7.29],
    ])
    h.clock.set('2026-05-05T09:00:00Z')
    const [invoice] = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
    const charge = ((await h.request('GET', `/features/${r}/transactions`)).body as any[]).find((t) => t.transactionType === 'Recurring Charge')
    assert.is((await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'goodwill', lines: [{ transactionID: charge.id, amount: '1.91' }] })).status, 201)
    h.clock.set('2026-05-31T09:00:00Z')
    const may = await bill(h, '2026-05-31')
    const [ben] = await statements(h, `billingRunID=${may.id}&holder=Ben%20Carter`)
    assert.equal(brief(ben.lines), [[r, 'Recurring Charge', 'Fixed Amount', 50, 3.01, 3.01], [r, 'Credit Note', 'Fixed Amount', -1.91, 3.01, -0.11]])
  })

  test("call charges earn the callChargeCommissionProfile's percentage for the feature's primary holder", async ({ h }) => {
    const mobile = (await h.request('POST', '/tariffs', { name: 'UK Mobile', baseRoundSeconds: 60 })).body.id
    await h.request('POST', `/tariffs/${mobile}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'any', cost: '0.10', costConnection: '0.02' })
    const c = await newCustomer(h, { defaultMobileTariff: 'UK Mobile', commissionHolder: 'Emma Foster' })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 001' })).body.id
    const feature = async (startDate: string, callChargeCommissionProfile: string) => (await h.request('POST', `/numbers/${n}/features`, { featureType: 'Hosted Seat', startDate, callChargeCommissionProfile })).body.id
    const f = await feature('2026-01-01', 'Premium Dealer')
    // Only the feature active when the calls start earns, once (contract 17.7's order): not one
    // dropped before, not one starting after, not an active one that started earlier than f.
    const dropped = await feature('2025-01-01', 'Internal Sales')
    await act(h, `/features/${dropped}`, 'drop', { status: 'Dropped', dateDrop: '2025-06-30' })
    await feature('2026-06-01', 'Internal Sales')
    await feature('2025-12-01', 'Standard Dealer')
    // Two 61 s mobile calls: 0.22 each, one Call Charges row of 0.44; Premium Dealer 10 %: 0.044 → 0.04.
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', '01632960001,07700900001,2026-01-10T10:00:00Z,61,MOB,mobile,Gamma', '01632960001,07700900002,2026-01-11T10:00:00Z,61,MOB,mobile,Gamma'].join('\n') + '\n'
    assert.is((await h.request('POST', '/usageFiles', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })).status, 201)
    const run = await bill(h, '2026-01-31')
    const [emma] = await statements(h, `billingRunID=${run.id}&holder=Emma%20Foster`)
    assert.equal([brief(emma.lines), emma.total], [[[f, 'Call Charges', 'Percentage', 0.44, 10, 0.04]], 0.04])
  })

  test("every holder's statements, in name order, are each holder's own, read holder by holder; a holder without lines has none", async ({ h }) => {
    const c = await newCustomer(h, { commissionHolder: 'Daniel Evans' })
    // Daniel by his customer; Ben and Alice on the feature; Emma only as a secondary holder; the House Account named but earning nothing in January.
    await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '40.00', serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage' })
    await newFeature(h, c, {
      startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '30.00', commissionHolder: 'Ben Carter', serviceChargeCommission: '1.50', serviceChargeCommissionType: 'Fixed Amount',
      commissionHolderID2: 'Emma Foster', serviceChargeCommission2: '5', serviceChargeCommissionType2: 'Percentage',
    })
    await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '20.00', commissionHolder: 'Alice Morgan', serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage' })
    await newFeature(h, c, { startDate: '2026-03-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '20.00', commissionHolder: 'House Account', serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage' })
    const run = await bill(h, '2026-01-31')

    h.queries.length = 0
    const all = await statements(h, `billingRunID=${run.id}`)
    // The completed run's rows are read by one holder at a time from the terms kept as it completed, never all of them at once.
    const rowReads = h.queries.filter((q) => q.includes('"creditedAmount"'))
    assert.ok(rowReads.length > 0 && rowReads.every((q) => q.includes('"s"."holder" = ')), 'every read of commission rows is a holder\'s')
    assert.equal(all.map((s) => [s.holder, s.total]), [['Alice Morgan', 2], ['Ben Carter', 1.5], ['Daniel Evans', 4], ['Emma Foster', 1.5]])
    for (const s of all) assert.equal([s], await statements(h, `billingRunID=${run.id}&holder=${encodeURIComponent(s.holder)}`), s.holder)
    const csv = (await h.request('GET', `/commissionStatements?billingRunID=${run.id}`, undefined, { headers: { accept: 'text/csv' } })).text.trim().split('\r\n')
    assert.equal(csv.filter((l) => l.includes(',total,') && l.endsWith(',')), ['Alice Morgan,total,,,,,,,,,,2,', 'Ben Carter,total,,,,,,,,,,1.5,', 'Daniel Evans,total,,,,,,,,,,4,', 'Emma Foster,total,,,,,,,,,,1.5,'])
    assert.is(csv.length, 1 + 4 * 3)
  })

  test('statements need level 3, a billing run (400103) given by its ID (400103) that exists (404001)', async ({ h }) => {
    const low = await h.request('GET', '/commissionStatements?billingRunID=1', undefined, { key: h.keys.low })
    assert.equal([low.status, low.body.error_code], [403, 403103])
    const none = await h.request('GET', '/commissionStatements?holder=Alice%20Morgan')
    assert.equal([none.status, none.body.error_code], [400, 400103])
    // Not an ID is a bad query (as `/history?resourceID=abc`), not a run that does not exist.
    for (const id of ['abc', '1.5', '0', '-1']) {
      const bad = await h.request('GET', `/commissionStatements?billingRunID=${id}`)
      assert.equal([bad.status, bad.body.error_code], [400, 400103], id)
    }
    for (const path of ['/commissionStatements?billingRunID=99999', '/commissionStatements/?billingRunID=99999']) {
      const missing = await h.request('GET', path)
      assert.equal([missing.status, missing.body.error_code], [404, 404001], path)
    }
  })

  test.run()
}
