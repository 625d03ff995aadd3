import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SmtpMailer } from '../../adapters/delivery/smtp-mailer.js'
import { createApiKey } from '../../core/access/api-keys.js'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import { runDunning } from '../../core/dunning/run-dunning.js'
import { mergePresets } from '../../core/presets/presets.js'
import { act, bill, newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { startSmtpSink } from '../support/smtp-sink.js'
import { activeTargets } from '../support/targets.js'

// This platform withholds suspend and bar from customers requiring regulator protection (shipped: none).
const presets = mergePresets({
  lists: { regulatorProtectedActions: ['suspend', 'bar'] },
  dunningProfiles: {
    Standard: { steps: [{ afterDays: 7, action: 'reminder' }, { afterDays: 14, action: 'finalNotice' }] },
    Strict: { steps: [{ afterDays: 7, action: 'reminder' }, { afterDays: 14, action: 'finalNotice' }, { afterDays: 28, action: 'suspend' }, { afterDays: 28, action: 'bar' }] },
  },
})
/** The invoice of 2026-01-31 is due 14 days later and overdue after 2026-02-14: day N is N days past it. */
const OVERDUE = '2026-02-14' as DateOnly
const dayOf = (n: number) => addDays(OVERDUE, n)

type Ctx = { h: Harness; sink: Awaited<ReturnType<typeof startSmtpSink>> }

const jobs = async (h: Harness, ...names: string[]) => {
  const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
  for (const name of names) await scheduler.runNow(name)
  await scheduler.stop()
}
const customer = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}`)).body
const invoiceOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/invoices`)).body[0]
const events = async (h: Harness, type: string) => (await h.request('GET', `/events?idAfter=0&limit=1000&type=${type}`)).body as any[]

for (const target of activeTargets()) {
  const test = suite<Ctx>(`dunning [${target}]`)
  test.before(async (ctx) => {
    ctx.sink = await startSmtpSink()
    ctx.h = await openHarness(target, { now: '2026-01-31T09:00:00Z', presets, config: { mailer: new SmtpMailer(ctx.sink.url) } })
  })
  test.after(async (ctx) => {
    await ctx.h.close()
    await ctx.sink.close()
  })

  test('a 60-day timeline: reminder day 7, final notice 14, suspend and bar 28, paid day 40 → unsuspended; a person\'s suspension survives payment', async ({ h, sink }) => {
    // Not Protected: the platform may cut these off itself (protected customers: see the test below).
    const strict = await newCustomer(h, { accountNumber: 'DUN-1', email: 'dun1@example.com', paymentTerms: 14, dunningProfile: 'Strict', regulatorProtectionClass: 'Not Protected' })
    const contact = await h.request('POST', `/customers/${strict}/customerContacts`, { firstnames: 'Pat', lastname: 'Payer', email: 'accounts@example.com', emailBillType: 'PDF' })
    assert.is(contact.status, 201, contact.text)
    // A contact whose bill type is None is sent nothing: no invoice, and no reminder either.
    const silent = await h.request('POST', `/customers/${strict}/customerContacts`, { firstnames: 'Sam', lastname: 'Silent', email: 'no-mail@example.com', emailBillType: 'None' })
    assert.is(silent.status, 201, silent.text)
    // copyCorrespondenceTypeIDs adds what it names to what the bill type gives; it never takes a copy away.
    const copies = [
      { firstnames: 'Rita', email: 'reminders-only@example.com', emailBillType: 'None', copyCorrespondenceTypeIDs: ['Overdue Reminder'] },
      { firstnames: 'Ivy', email: 'invoices-only@example.com', emailBillType: 'PDF', copyCorrespondenceTypeIDs: ['Invoice', 'Welcome Letter'] },
      { firstnames: 'Nora', email: 'both@example.com', copyCorrespondenceTypeIDs: ['Invoice', 'Overdue Reminder'] },
    ]
    for (const c of copies) assert.is((await h.request('POST', `/customers/${strict}/customerContacts`, { lastname: 'Copy', ...c })).status, 201)
    const number = await h.request('POST', `/customers/${strict}/numbers`, { number: '020 7946 0101' })
    assert.is(number.status, 201, number.text)
    const held = await newCustomer(h, { accountNumber: 'DUN-2', email: 'dun2@example.com', paymentTerms: 14, dunningProfile: 'Strict', regulatorProtectionClass: 'Not Protected' })
    const plain = await newCustomer(h, { accountNumber: 'DUN-3', email: 'dun3@example.com', paymentTerms: 14 })
    for (const c of [strict, held, plain]) assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Installation', amount: '100.00', VATRate: 'Standard 20%' })).status, 201)
    await bill(h, '2026-01-31')
    await jobs(h, 'invoice-delivery')
    const invoiceMails = sink.received.length
    const invoiceTo = sink.received.map((m) => (m.to as any).text as string).filter((to) => /copy|only|both|accounts|no-mail/.test(to) || to === 'dun1@example.com')
    assert.equal(invoiceTo.sort(), ['accounts@example.com', 'both@example.com', 'dun1@example.com', 'invoices-only@example.com'])
    assert.is((await invoiceOf(h, strict)).overdueDate, OVERDUE)
    const seen: Record<number, [string, string | null]> = {}
    for (let day = 0; day <= 60; day++) {
      h.clock.set(`${dayOf(day)}T00:30:00Z`)
      if (day === 20) await act(h, `/customers/${held}`, 'suspend', { status: 'Suspended', statusReason: 'Customer Request' })
      if (day === 40) {
        for (const c of [strict, held]) assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: '120.00' })).status, 201)
      }
      await jobs(h, 'dunning', 'invoice-delivery')
      const s = await customer(h, strict)
      seen[day] = [s.status, s.statusReason]
    }
    const steps = (await invoiceOf(h, strict)).dunningSteps
    assert.equal(steps, [
      { step: 1, afterDays: 7, action: 'reminder', date: dayOf(7) },
      { step: 2, afterDays: 14, action: 'finalNotice', date: dayOf(14) },
      { step: 3, afterDays: 28, action: 'suspend', date: dayOf(28) },
      { step: 4, afterDays: 28, action: 'bar', date: dayOf(28) },
    ])
    assert.equal(seen[27], ['Active', null])
    assert.equal(seen[28], ['Suspended', 'Dunning'])
    assert.equal(seen[39], ['Suspended', 'Dunning'])
    assert.equal(seen[40], ['Active', 'Dunning cleared'], 'the job that runs after the payment lifts it')
    const s = await customer(h, strict)
    assert.equal([s.isSuspended, s.statusChangedStamp], [false, dayOf(40)])
    const p = await customer(h, held)
    assert.equal([p.isSuspended, p.status, p.statusReason], [true, 'Suspended', 'Customer Request'], "a person's suspension is never lifted by dunning")
    assert.equal((await invoiceOf(h, held)).dunningSteps.map((x: any) => [x.action, x.date]), [['reminder', dayOf(7)], ['finalNotice', dayOf(14)], ['suspend', dayOf(28)], ['bar', dayOf(28)]])
    assert.equal((await invoiceOf(h, plain)).dunningSteps.map((x: any) => x.action), ['reminder', 'finalNotice'], 'the shipped Standard profile never suspends')
    assert.equal([(await customer(h, plain)).isSuspended], [false])
    // Emails: one reminder and one final notice to the customer and to its contacts (not the one with None that names no reminders), through the real SMTP server.
    const dunning = sink.received.slice(invoiceMails)
    const strictMails = dunning.filter((m) => /DUN-1/.test(m.subject ?? ''))
    assert.equal(strictMails.map((m) => [(m.to as any).text, /reminder/.test(m.subject!) ? 'reminder' : /final notice/.test(m.subject!) ? 'finalNotice' : '?']).sort(), [
      ['accounts@example.com', 'finalNotice'],
      ['accounts@example.com', 'reminder'],
      ['both@example.com', 'finalNotice'],
      ['both@example.com', 'reminder'],
      ['dun1@example.com', 'finalNotice'],
      ['dun1@example.com', 'reminder'],
      ['invoices-only@example.com', 'finalNotice'],
      ['invoices-only@example.com', 'reminder'],
      ['reminders-only@example.com', 'finalNotice'],
      ['reminders-only@example.com', 'reminder'],
    ])
    const reminder = strictMails.find((m) => (m.to as any).text === 'dun1@example.com' && /reminder/.test(m.subject!))!
    const invoiceNumber = (await invoiceOf(h, strict)).invoiceNumber
    assert.match(reminder.text!, `Invoice ${invoiceNumber}`)
    assert.match(reminder.text!, '£120.00 outstanding')
    assert.is(reminder.from!.text, h.platform.context.presets.seller.email)
    assert.is(dunning.length, 10 + 2 + 2, 'strict: 2 emails to 5 addresses; held and plain: 2 each')
    // Events and history.
    const taken = (await events(h, 'dunning.step_taken')).filter((e) => e.data.invoice.customerID === strict)
    assert.equal(taken.map((e) => e.data.step.action), ['reminder', 'finalNotice', 'suspend', 'bar'])
    const bars = (await events(h, 'customer.bar_requested')).filter((e) => e.data.customer.id === strict)
    assert.equal(bars.map((e) => e.data.numbers.map((n: any) => n.number)), [['020 7946 0101']])
    const history = (await h.request('GET', `/customers/${strict}/history`)).body as any[]
    assert.equal(history.filter((e) => e.action === 'suspend' || e.action === 'unsuspend').map((e) => [e.action, e.apiKeyName, e.changes.statusReason?.[1]]), [
      ['suspend', 'system', 'Dunning'],
      ['unsuspend', 'system', 'Dunning cleared'],
    ])
    const invoiceHistory = (await h.request('GET', `/history?customerID=${strict}&resource=invoices`)).body as any[]
    assert.equal(invoiceHistory.map((e) => [e.action, e.changes.dunningSteps[1].length]), [['dunningStep', 1], ['dunningStep', 2], ['dunningStep', 3], ['dunningStep', 4]])
  })

  test('run twice on a day, or twice at once, each step is taken once', async ({ h, sink }) => {
    h.clock.set('2026-06-01T09:00:00Z')
    const c = await newCustomer(h, { accountNumber: 'DUN-4', email: 'dun4@example.com', paymentTerms: 1, dunningProfile: 'Strict', regulatorProtectionClass: 'Not Protected' })
    await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Installation', amount: '10.00' })
    const payer = await newCustomer(h, { accountNumber: 'DUN-5', email: 'dun5@example.com', paymentTerms: 1 })
    await h.request('POST', `/customers/${payer}/transactions`, { transactionType: 'Installation', amount: '10.00', VATRate: 'Standard 20%' })
    await bill(h, '2026-06-01')
    const before = sink.received.length
    await jobs(h, 'invoice-delivery')
    // 30 days past: every step is due at once, taken in order.
    h.clock.set('2026-07-02T00:30:00Z')
    const [a, b] = await Promise.all([runDunning(h.platform.context), runDunning(h.platform.context)])
    await runDunning(h.platform.context)
    // DUN-5 pays after its reminder and final notice are queued, before they are sent.
    assert.is((await h.request('POST', `/customers/${payer}/transactions`, { transactionType: 'Payment', amount: '12.00' })).status, 201)
    await jobs(h, 'dunning', 'invoice-delivery')
    const steps = (await invoiceOf(h, c)).dunningSteps
    assert.equal(steps.map((s: any) => [s.step, s.action]), [[1, 'reminder'], [2, 'finalNotice'], [3, 'suspend'], [4, 'bar']])
    assert.ok(a.steps + b.steps >= 4)
    assert.is(sink.received.slice(before).filter((m) => /DUN-4/.test(m.subject ?? '') && !/invoice/.test(m.subject!)).length, 2, 'one reminder, one final notice')
    assert.is((await events(h, 'dunning.step_taken')).filter((e) => e.data.invoice.customerID === c).length, 4)
    assert.is((await events(h, 'customer.bar_requested')).filter((e) => e.data.customer.id === c).length, 1)
    // Nothing overdue when they were to go out: no notice of £0.00 overdue, each marked Skipped.
    const paid = await invoiceOf(h, payer)
    assert.equal([paid.status, paid.dunningSteps.map((s: any) => s.action)], ['Paid', ['reminder', 'finalNotice']])
    assert.is(sink.received.slice(before).filter((m) => /DUN-5/.test(m.subject ?? '') && !/invoice/.test(m.subject!)).length, 0, 'no reminder once paid')
    const deliveries = (await h.request('GET', `/invoices/${paid.id}/deliveries`)).body as any[]
    assert.equal(deliveries.map((d) => [d.purpose, d.status]), [['invoice', 'Sent'], ['reminder', 'Skipped'], ['finalNotice', 'Skipped']])
  })

  test('a customer requiring regulator protection (blank class, Consumer) is not suspended or barred: each step recorded withheld once, announced for a person', async ({ h }) => {
    h.clock.set('2026-08-01T09:00:00Z')
    const make = async (n: string, extra: Record<string, unknown>) => {
      const c = await newCustomer(h, { accountNumber: `DUN-P${n}`, paymentTerms: 1, dunningProfile: 'Strict', ...extra })
      assert.is((await h.request('POST', `/customers/${c}/numbers`, { number: `020 7946 02${n}0` })).status, 201)
      assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Installation', amount: '10.00' })).status, 201)
      return c
    }
    const blank = await make('1', {})
    const consumer = await make('2', { regulatorProtectionClass: 'Consumer' })
    const unprotected = await make('3', { regulatorProtectionClass: 'Not Protected' })
    await bill(h, '2026-08-01')
    // 30 days past: every step is due; the job runs twice, as on two days.
    h.clock.set('2026-09-02T00:30:00Z')
    await runDunning(h.platform.context)
    h.clock.set('2026-09-03T00:30:00Z')
    await runDunning(h.platform.context)
    const day = '2026-09-02'
    for (const [c, cls] of [[blank, null], [consumer, 'Consumer']] as const) {
      const s = await customer(h, c)
      assert.equal([s.isSuspended, s.status], [false, 'Active'], `${cls}: not suspended`)
      const invoice = await invoiceOf(h, c)
      assert.equal(invoice.dunningSteps, [
        { step: 1, afterDays: 7, action: 'reminder', date: day },
        { step: 2, afterDays: 14, action: 'finalNotice', date: day },
        { step: 3, afterDays: 28, action: 'suspend', date: day, withheld: 'regulatorProtection' },
        { step: 4, afterDays: 28, action: 'bar', date: day, withheld: 'regulatorProtection' },
      ])
      const withheld = (await events(h, 'dunning.step_withheld')).filter((e) => e.data.customer.id === c)
      assert.equal(
        withheld.map((e) => [e.data.step.action, e.data.reason, e.data.regulatorProtectionClass, e.data.invoice.id]),
        [
          ['suspend', 'regulatorProtection', cls, invoice.id],
          ['bar', 'regulatorProtection', cls, invoice.id],
        ],
        'once each, the second run records and announces nothing',
      )
      assert.equal((await events(h, 'dunning.step_taken')).filter((e) => e.data.invoice.customerID === c).map((e) => e.data.step.action), ['reminder', 'finalNotice'])
      assert.is((await events(h, 'customer.bar_requested')).filter((e) => e.data.customer.id === c).length, 0, 'not barred')
      const history = (await h.request('GET', `/history?customerID=${c}&resource=invoices`)).body as any[]
      assert.equal(history.map((e) => [e.action, e.changes.dunningSteps[1].at(-1).withheld ?? null]), [['dunningStep', null], ['dunningStep', null], ['dunningStep', 'regulatorProtection'], ['dunningStep', 'regulatorProtection']])
    }
    const u = await customer(h, unprotected)
    assert.equal([u.isSuspended, u.statusReason], [true, 'Dunning'], 'Not Protected: suspended as before')
    assert.equal((await invoiceOf(h, unprotected)).dunningSteps.map((s: any) => [s.action, s.withheld]), [['reminder', undefined], ['finalNotice', undefined], ['suspend', undefined], ['bar', undefined]])
    assert.is((await events(h, 'customer.bar_requested')).filter((e) => e.data.customer.id === unprotected).length, 1)
    assert.is((await events(h, 'dunning.step_withheld')).filter((e) => e.data.customer.id === unprotected).length, 0)
  })

  test("only dunning's own suspension is lifted: a person's, with the reason Dunning too, is not, nor one a person made again after dunning's", async ({ h }) => {
    h.clock.set('2026-10-01T09:00:00Z')
    // A person may pick any configured statusReason, `Dunning` included (contract 4, billing-api.md's Preset Value).
    const asked = { status: 'Suspended', statusReason: 'Dunning' }
    // An API key named `system`, like the platform's own history entries: still a person.
    const systemKey = (await createApiKey(h.platform.context.store.apiKeys, h.platform.secrets, h.clock, { name: 'system', expertLevel: 5 })).secret
    const make = async (n: string) => newCustomer(h, { accountNumber: `DUN-S${n}`, paymentTerms: 1, dunningProfile: 'Strict', regulatorProtectionClass: 'Not Protected' })
    const owing = async (c: string) => assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Installation', amount: '10.00' })).status, 201)
    const byPerson = await make('1')
    await act(h, `/customers/${byPerson}`, 'suspend', asked)
    const byKeySystem = await make('2')
    assert.is((await h.request('POST', `/customers/${byKeySystem}?action=suspend`, asked, { key: systemKey })).status, 200)
    const personFirst = await make('3')
    const personAgain = await make('4')
    const dunned = await make('5')
    for (const c of [personFirst, personAgain, dunned]) await owing(c)
    await bill(h, '2026-10-01')
    // Owing, suspended by a person first: dunning's suspend step comes due on a customer already suspended.
    await act(h, `/customers/${personFirst}`, 'suspend', asked)
    h.clock.set('2026-11-05T00:30:00Z')
    await jobs(h, 'dunning')
    for (const c of [personAgain, dunned]) assert.equal([(await customer(h, c)).isSuspended, (await customer(h, c)).statusReason], [true, 'Dunning'], 'suspended by dunning')
    assert.equal((await invoiceOf(h, personFirst)).dunningSteps.map((s: any) => s.action), ['reminder', 'finalNotice', 'suspend', 'bar'])
    // A person lifts dunning's suspension and suspends again, with the same reason: the suspension is the person's now.
    await act(h, `/customers/${personAgain}`, 'unsuspend', { status: 'Active' })
    await act(h, `/customers/${personAgain}`, 'suspend', asked)
    for (const c of [personFirst, personAgain, dunned]) assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: '100.00' })).status, 201)
    h.clock.set('2026-11-06T00:30:00Z')
    await jobs(h, 'dunning')
    for (const c of [byPerson, byKeySystem, personFirst, personAgain]) {
      const s = await customer(h, c)
      assert.equal([s.isSuspended, s.status, s.statusReason], [true, 'Suspended', 'Dunning'], `${s.accountNumber}: a person's suspension is never lifted by dunning`)
    }
    const d = await customer(h, dunned)
    assert.equal([d.isSuspended, d.status, d.statusReason], [false, 'Active', 'Dunning cleared'], "dunning's own suspension is lifted once paid")
    const history = (await h.request('GET', `/customers/${personAgain}/history`)).body as any[]
    assert.equal(history.filter((e) => e.action === 'suspend' || e.action === 'unsuspend').map((e) => [e.action, e.apiKeyName]), [['suspend', 'system'], ['unsuspend', 'test-admin'], ['suspend', 'test-admin']])
  })

  test('several invoices taking a reminder or final notice on one day make one email each, listing them all; each invoice records its steps', async ({ h, sink }) => {
    h.clock.set('2026-12-01T09:00:00Z')
    const c = await newCustomer(h, { accountNumber: 'DUN-M1', email: 'dunm1@example.com', emailBillType: 'None', paymentTerms: 1 })
    for (const cutoff of ['2026-12-01', '2027-01-01', '2027-02-01']) {
      h.clock.set(`${cutoff}T09:00:00Z`)
      assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Installation', amount: '10.00', VATRate: 'Standard 20%' })).status, 201)
      await bill(h, cutoff)
    }
    const invoices = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
    assert.is(invoices.length, 3)
    const before = sink.received.length
    // The job did not run for a while (or the invoices fell due together): each invoice's reminder and final notice are due at once.
    h.clock.set('2027-03-10T00:30:00Z')
    await jobs(h, 'dunning', 'invoice-delivery')
    for (const i of (await h.request('GET', `/customers/${c}/invoices`)).body as any[]) {
      assert.equal(i.dunningSteps.map((s: any) => [s.action, s.date]), [['reminder', '2027-03-10'], ['finalNotice', '2027-03-10']], `invoice ${i.id}: its steps, once each`)
    }
    assert.is((await events(h, 'dunning.step_taken')).filter((e) => e.data.invoice.customerID === c).length, 6)
    const mails = sink.received.slice(before).filter((m) => /DUN-M1/.test(m.subject ?? ''))
    assert.equal(mails.map((m) => [(m.to as any).text, /reminder/.test(m.subject!) ? 'reminder' : /final notice/.test(m.subject!) ? 'finalNotice' : m.subject]).sort(), [
      ['dunm1@example.com', 'finalNotice'],
      ['dunm1@example.com', 'reminder'],
    ])
    for (const m of mails) {
      for (const i of invoices) assert.match(m.text!, `Invoice ${i.invoiceNumber}`)
      assert.match(m.text!, 'Total overdue: £36.00')
    }
    // The one delivery of each is recorded against the first invoice that took the step.
    const deliveries = async (id: string) => ((await h.request('GET', `/invoices/${id}/deliveries`)).body as any[]).map((x) => [x.purpose, x.status])
    assert.equal(await deliveries(invoices[0].id), [['reminder', 'Sent'], ['finalNotice', 'Sent']])
    assert.equal([await deliveries(invoices[1].id), await deliveries(invoices[2].id)], [[], []])
  })

  test('dunningProfile is a preset: an unknown name is 400 naming it; unset shows null', async ({ h }) => {
    const r = await h.request('POST', '/customers', { dunningProfile: 'Brutal' })
    assert.equal([r.status, r.body.error_code], [400, 400101])
    assert.match(r.body.error, 'dunningProfile')
    assert.is((await h.request('GET', '/presets/customers')).body.dunningProfile.join(','), 'Standard,Strict')
    const c = await newCustomer(h)
    assert.is((await customer(h, c)).dunningProfile, null)
  })

  test.run()
}
