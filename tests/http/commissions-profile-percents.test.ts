import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parseMoney } from '../../core/money/money.js'
import type { CommissionProfile } from '../../core/presets/commission-profiles.js'
import { defaultPresets, type Presets } from '../../core/presets/presets.js'
import { bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import { brief, statements } from '../support/commission-statements.js'

/**
 * Contract 16.3: a profile's commission is earned at the percentage the presets give when the
 * charge is invoiced. An operator who changes a profile's percentage in the presets file, or
 * removes the profile, changes no completed run's statement, nor the clawback of a credit note
 * on one of its invoices: only runs that complete after.
 */

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; profiles: Record<string, CommissionProfile> }>(`commission profiles' percentages kept by completed runs (contract 16.3) [${target}]`)
  test.before.each(async (ctx) => {
    // The presets the platform runs on, with a profile map of the test's own: the operator's
    // edit of the presets file, without a restart the in-memory database would not survive.
    ctx.profiles = { ...defaultPresets.commissionProfiles }
    const presets: Presets = { ...defaultPresets, commissionProfiles: ctx.profiles }
    ctx.h = await openHarness(target, { now: '2026-01-31T09:00:00Z', presets })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test("a profile's percentage changed, or the profile removed, after a run completed: its statement and the clawback of its charges keep the percentage then", async ({ h, profiles }) => {
    const c = await newCustomer(h, { accountNumber: 'C-1', commissionHolder: 'Alice Morgan' })
    // 100.00 a month by Standard Dealer (5 %), a 40.00 connection charge by Premium Dealer (10 %).
    const a = await newFeature(h, c, {
      startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '100.00', serviceChargeCommissionProfile: 'Standard Dealer',
      connectionCharge: '40.00', connectionChargeCommissionProfile: 'Premium Dealer',
    })
    const jan = await bill(h, '2026-01-31')
    const alice = async (run: { id: string }) => (await statements(h, `billingRunID=${run.id}&holder=Alice%20Morgan`))[0]
    const janLines = [
      [a, 'Connection Charge', 'Percentage', 40, 10, 4],
      [a, 'Recurring Charge', 'Percentage', 100, 5, 5],
    ]
    const sorted = (lines: any[]) => brief(lines).sort((x, y) => String(x[1]).localeCompare(String(y[1])))
    assert.equal(sorted((await alice(jan)).lines), janLines)

    // The operator edits the presets: Standard Dealer is 10 % now, Premium Dealer is gone.
    profiles['Standard Dealer'] = { percent: parseMoney('10')! }
    delete profiles['Premium Dealer']
    const janAfter = await alice(jan)
    assert.equal([sorted(janAfter.lines), janAfter.total], [janLines, 9], "January's statement keeps the percentages it earned at")

    // Credit notes on January's invoice: half the service charge, all of the connection charge.
    h.clock.set('2026-02-10T09:00:00Z')
    const [invoice] = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
    const rows = (await h.request('GET', `/features/${a}/transactions`)).body as any[]
    const charge = (type: string) => rows.find((t) => t.transactionType === type).id
    const note = await h.request('POST', `/invoices/${invoice.id}/creditNotes`, {
      reason: 'goodwill',
      lines: [{ transactionID: charge('Recurring Charge'), amount: '50.00' }, { transactionID: charge('Connection Charge'), amount: '40.00' }],
    })
    assert.is(note.status, 201, JSON.stringify(note.body))
    h.clock.set('2026-02-28T09:00:00Z')
    const feb = await bill(h, '2026-02-28')

    const febLines = brief((await alice(feb)).lines)
    assert.equal(
      febLines.filter((l) => l[1] === 'Credit Note').sort((x, y) => Number(x[3]) - Number(y[3])),
      [
        [a, 'Credit Note', 'Percentage', -50, 5, -2.5],
        [a, 'Credit Note', 'Percentage', -40, 10, -4],
      ],
      "the clawbacks take back what January earned, at January's percentages",
    )
    assert.equal(febLines.filter((l) => l[1] === 'Recurring Charge'), [[a, 'Recurring Charge', 'Percentage', 100, 10, 10]], "February's charge earns at the presets' percentage now")
    assert.equal(sorted((await alice(jan)).lines), janLines, 'January still as it was')
  })

  test.run()
}
