import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import { runDunning } from '../../core/dunning/run-dunning.js'
import { mergePresets } from '../../core/presets/presets.js'
import { bill, newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

// Contract 15.2: each step due and not yet done, once, in order, whatever the profile's steps were when others were taken.
const reminder = { afterDays: 7, action: 'reminder' }
const finalNotice = { afterDays: 14, action: 'finalNotice' }
const profiles = {
  Standard: { steps: [reminder, finalNotice] },
  // Standard with a suspension inserted before its final notice.
  Stricter: { steps: [reminder, { afterDays: 10, action: 'suspend' }, finalNotice] },
  // Suspends at 14 days, and on a credit limit passed.
  Cutoff: { steps: [reminder, { afterDays: 14, action: 'suspend' }], onCreditLimit: 'suspend' },
  CutoffAlerting: { steps: [reminder, { afterDays: 14, action: 'suspend' }], onCreditLimit: 'alert' },
}
const presets = mergePresets({ dunningProfiles: profiles } as never)
/** The Standard profile as a presets file edited to Stricter's steps reads it after a restart. */
const edited = mergePresets({ dunningProfiles: { ...profiles, Standard: profiles.Stricter } } as never)

const customer = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}`)).body
const invoiceOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/invoices`)).body[0]
const events = async (h: Harness, type: string) => (await h.request('GET', `/events?idAfter=0&limit=1000&type=${type}`)).body as any[]
const steps = async (h: Harness, c: string) => ((await invoiceOf(h, c)).dunningSteps as any[]).map((s) => [s.step, s.afterDays ?? null, s.action, s.date])
const transaction = async (h: Harness, c: string, body: Record<string, unknown>) => assert.is((await h.request('POST', `/customers/${c}/transactions`, body)).status, 201)
/**
 * Customers owing £120.00 on an invoice of `date` (each test its own month), due 14 days later
 * and overdue after it: `dayOf(n)` is n days past that due date.
 */
async function debtors<A extends string>(h: Harness, date: DateOnly, accounts: Record<A, Record<string, unknown>>) {
  h.clock.set(`${date}T09:00:00Z`)
  const ids = {} as Record<A, string>
  for (const [account, extra] of Object.entries(accounts) as [A, Record<string, unknown>][]) {
    ids[account] = await newCustomer(h, { accountNumber: account, email: `${account.toLowerCase()}@example.com`, paymentTerms: 14, regulatorProtectionClass: 'Not Protected', ...extra })
    await transaction(h, ids[account], { transactionType: 'Installation', amount: '100.00', VATRate: 'Standard 20%' })
  }
  await bill(h, date)
  const overdue = addDays(date, 14)
  assert.is((await invoiceOf(h, Object.values<string>(ids)[0])).overdueDate, overdue)
  const dayOf = (n: number) => addDays(overdue, n)
  return { ...ids, dayOf, dunDays: (from: number, to: number, context = h.platform.context) => dunDays(h, dayOf, from, to, context) }
}
/** The dunning job on each day from `from` to `to`, at 00:30, under `context`'s presets. */
async function dunDays(h: Harness, dayOf: (n: number) => DateOnly, from: number, to: number, context = h.platform.context) {
  for (let day = from; day <= to; day++) {
    h.clock.set(`${dayOf(day)}T00:30:00Z`)
    await runDunning(context)
  }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`dunning: profiles changed, suspensions handed to a credit limit [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-31T09:00:00Z', presets })
  })
  test.after(async (ctx) => ctx.h.close())

  test('a step is its afterDays and action: a suspension inserted before a final notice already taken is taken, the final notice not again', async ({ h }) => {
    const { MOVED, EDITED, dayOf, dunDays } = await debtors(h, '2026-01-31' as DateOnly, { MOVED: { dunningProfile: 'Standard' }, EDITED: {} })
    await dunDays(0, 15)
    for (const c of [MOVED, EDITED]) assert.equal(await steps(h, c), [[1, 7, 'reminder', dayOf(7)], [2, 14, 'finalNotice', dayOf(14)]])
    // MOVED's profile changes to Stricter; EDITED follows the default Standard, which a presets file edited to Stricter's steps.
    assert.is((await h.request('PATCH', `/customers/${MOVED}`, { dunningProfile: 'Stricter' })).status, 200)
    await dunDays(16, 30, { ...h.platform.context, presets: edited })
    for (const c of [MOVED, EDITED]) {
      // The suspension, due since day 10, on the first run that finds it: step 2 of the profile it is in now.
      assert.equal(await steps(h, c), [[1, 7, 'reminder', dayOf(7)], [2, 14, 'finalNotice', dayOf(14)], [2, 10, 'suspend', dayOf(16)]])
      const s = await customer(h, c)
      assert.equal([s.status, s.statusReason], ['Suspended', 'Dunning'])
      assert.equal((await events(h, 'dunning.step_taken')).filter((e) => e.data.invoice.customerID === c).map((e) => [e.data.step.action, e.data.step.afterDays]), [['reminder', 7], ['finalNotice', 14], ['suspend', 10]])
    }
  })

  test('steps recorded before afterDays was kept stay read: each is its profile\'s first step of its action', async ({ h }) => {
    const { OLDMOVED, OLDKEPT, dayOf, dunDays } = await debtors(h, '2026-04-30' as DateOnly, { OLDMOVED: { dunningProfile: 'Stricter' }, OLDKEPT: { dunningProfile: 'Standard' } })
    // Written as the job wrote them before: step, action and date (a profile of Standard's steps).
    const old = [
      { step: 1, action: 'reminder', date: dayOf(7) },
      { step: 2, action: 'finalNotice', date: dayOf(14) },
    ]
    const repo = h.platform.context.store.repository('invoices')
    h.clock.set(`${dayOf(1)}T00:30:00Z`)
    await runDunning(h.platform.context)
    for (const c of [OLDMOVED, OLDKEPT]) await repo.update((await invoiceOf(h, c)).id, { dunningSteps: old })
    await dunDays(20, 21)
    const was = old.map((s) => [s.step, null, s.action, s.date])
    assert.equal(await steps(h, OLDMOVED), [...was, [2, 10, 'suspend', dayOf(20)]])
    assert.equal(await steps(h, OLDKEPT), was, 'an unchanged profile takes nothing again')
    assert.equal((await customer(h, OLDMOVED)).statusReason, 'Dunning')
  })

  test("dunning's suspension ending while a credit limit that suspends is passed stays, as the credit limit's", async ({ h }) => {
    const { OVER, UNDER, ALERTING, dayOf, dunDays } = await debtors(h, '2026-07-31' as DateOnly, {
      OVER: { dunningProfile: 'Cutoff', creditLimit: '150.00' },
      UNDER: { dunningProfile: 'Cutoff', creditLimit: '150.00' },
      ALERTING: { dunningProfile: 'CutoffAlerting', creditLimit: '150.00' },
    })
    await dunDays(0, 16)
    for (const c of [OVER, UNDER, ALERTING]) assert.equal([(await customer(h, c)).statusReason], ['Dunning'])
    // Suspended already: passing the limit suspends nothing more.
    h.clock.set(`${dayOf(17)}T09:00:00Z`)
    for (const c of [OVER, ALERTING]) await transaction(h, c, { transactionType: 'Installation', amount: '200.00', VATRate: 'Standard 20%' })
    assert.equal((await customer(h, OVER)).creditAlerts, ['creditLimit'])
    // The overdue invoices paid: still £240.00 owed, over the limit of £150.00, unbilled.
    h.clock.set(`${dayOf(18)}T09:00:00Z`)
    for (const c of [OVER, UNDER, ALERTING]) await transaction(h, c, { transactionType: 'Payment', amount: '120.00' })
    await dunDays(19, 21)
    const over = await customer(h, OVER)
    assert.equal([over.status, over.isSuspended, over.statusReason, over.statusChangedStamp], ['Suspended', true, 'Credit Limit', dayOf(14)], 'suspended since dunning did it, now for the limit')
    const history = (await h.request('GET', `/customers/${OVER}/history`)).body as any[]
    assert.equal(history.filter((e) => e.action === 'suspend' || e.action === 'unsuspend').map((e) => [e.action, e.apiKeyName, e.changes.statusReason]), [
      ['suspend', 'system', [null, 'Dunning']],
      ['suspend', 'system', ['Dunning', 'Credit Limit']],
    ])
    assert.equal((await events(h, 'customer.suspended')).filter((e) => e.data.id === OVER).map((e) => e.data.statusReason), ['Dunning', 'Credit Limit'])
    for (const c of [UNDER, ALERTING]) {
      const s = await customer(h, c)
      assert.equal([s.status, s.statusReason], ['Active', 'Dunning cleared'], `${s.accountNumber}: within its limit, or its profile only alerts`)
    }
  })

  test.run()
}
