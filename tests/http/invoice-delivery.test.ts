import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { simpleParser, type ParsedMail } from 'mailparser'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SmtpMailer } from '../../adapters/delivery/smtp-mailer.js'
import { openHarness, type Harness } from '../support/harness.js'
import { startSmtpSink } from '../support/smtp-sink.js'
import { activeTargets } from '../support/targets.js'

type Sink = Awaited<ReturnType<typeof startSmtpSink>>

/** Runs the invoice-delivery job once, as the scheduler does. */
async function deliver(h: Harness) {
  const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
  await scheduler.runNow('invoice-delivery')
  await scheduler.stop()
}

async function bill(h: Harness, cutoff = '2026-01-31') {
  await h.request('POST', '/billingRuns', { cutoffDate: cutoff, invoiceDate: cutoff, status: 'Requested' })
  const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
  await scheduler.runNow('billing-poll')
  await scheduler.stop()
}

async function customer(h: Harness, accountNumber: string, fields: Record<string, unknown>) {
  const r = await h.request('POST', '/customers', { accountNumber, emptyInvoiceAction: 'Send', ...fields })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return String(r.body.id)
}

const invoiceOf = async (h: Harness, customerID: string) => ((await h.request('GET', `/customers/${customerID}/invoices`)).body as any[])[0]
const deliveriesOf = async (h: Harness, invoiceID: string) => (await h.request('GET', `/invoices/${invoiceID}/deliveries`)).body as any[]
/** A customer with two numbers and four calls of two classes in January, on a tariff of its own. */
async function customerWithCalls(h: Harness, accountNumber: string, fields: Record<string, unknown>) {
  const tariff = `Calls ${accountNumber}`
  const t = await h.request('POST', '/tariffs', { name: tariff, baseRoundSeconds: 1 })
  assert.is(t.status, 201, JSON.stringify(t.body))
  for (const [chargeBand, cost] of [['NAT', '0.0200'], ['MOB', '0.0900']]) {
    assert.is((await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand, timeBand: 'any', cost, costConnection: '0.01' })).status, 201)
  }
  const id = await customer(h, accountNumber, { defaultNationalTariff: tariff, defaultMobileTariff: tariff, ...fields })
  for (const number of ['0161 496 0201', '0161 496 0202']) assert.is((await h.request('POST', `/customers/${id}/numbers`, { number })).status, 201)
  const rows = [
    'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID',
    `01614960201,01632 960001,2026-01-05T09:00:00Z,60,NAT,national,Gamma,${accountNumber}-1`,
    `01614960201,07700 900001,2026-01-06T09:00:00Z,30,MOB,mobile,Gamma,${accountNumber}-2`,
    `01614960201,01632 960002,2026-01-07T09:00:00Z,120,NAT,national,Gamma,${accountNumber}-3`,
    `01614960202,01632 960003,2026-01-08T09:00:00Z,90,NAT,national,Gamma,${accountNumber}-4`,
  ]
  const r = await h.request('POST', '/usageFiles?name=january.csv', undefined, { raw: rows.join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return id
}

const attachmentNames = (mail: { attachments: { filename?: string }[] }) => mail.attachments.map((a) => a.filename!.replace(/^.*\./, '')).sort()

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; sink: Sink }>(`invoice delivery over a real SMTP server [${target}]`)
  test.before(async (ctx) => {
    ctx.sink = await startSmtpSink()
  })
  test.after(async (ctx) => ctx.sink.close())
  test.before.each(async (ctx) => {
    ctx.sink.received.length = 0
    ctx.sink.state.refuse = false
    ctx.h = await openHarness(target, { now: '2026-02-01T09:00:00Z', config: { mailer: new SmtpMailer(ctx.sink.url) } })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('bill types decide the attachments; no itemisation without consent; contacts get copies; suppressed and None never sent', async ({ h, sink }) => {
    const ids = {
      full: await customer(h, 'D-FULL', { email: 'full@example.com', emailBillType: 'PDF + CSV', GDPRPECRConsentGiven: 'Yes' }),
      noConsent: await customer(h, 'D-NOC', { email: 'noc@example.com', emailBillType: 'PDF + CSV', GDPRPECRConsentGiven: 'No' }),
      unsetYes: await customer(h, 'D-UY', { email: 'uy@example.com', GDPRPECRConsentGiven: 'Yes' }),
      unsetNo: await customer(h, 'D-UN', { email: 'un@example.com' }),
      csv: await customer(h, 'D-CSV', { email: 'csv@example.com', emailBillType: 'CSV', GDPRPECRConsentGiven: 'Yes' }),
      none: await customer(h, 'D-NONE', { email: 'none@example.com', emailBillType: 'None' }),
      post: await customer(h, 'D-POST', { postBillType: 'PDF', faxBillType: 'PDF' }),
      withdrawn: await customer(h, 'D-WD', { email: 'wd@example.com', emailBillType: 'PDF + CSV', GDPRPECRConsentGiven: 'Yes' }),
      suppressed: await customer(h, 'D-SUP', { email: 'sup@example.com', emailBillType: 'PDF', lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 10, lowInvoiceAction: 'Suppress' }),
    }
    await h.request('POST', `/customers/${ids.suppressed}/transactions`, { transactionType: 'Debit Note', amount: 1, transactionDate: '2026-01-20' })
    const contact = await h.request('POST', `/customers/${ids.full}/customerContacts`, { firstnames: 'Copy', lastname: 'Reader', email: 'copy@example.com', emailBillType: 'Summary Only' })
    assert.is(contact.status, 201, JSON.stringify(contact.body))
    const shared = await h.request('POST', '/customerContacts', { firstnames: 'Shared', lastname: 'Accounts', email: 'shared@example.com', emailBillType: 'PDF' })
    assert.is(shared.status, 201, JSON.stringify(shared.body))
    assert.is((await h.request('POST', `/customers/${ids.unsetNo}?action=addSharedContact`, { sharedContactID: shared.body.id })).status, 200)
    assert.is((await h.request('POST', `/customers/${ids.withdrawn}/customerContacts`, { email: 'wd.contact@example.com', emailBillType: 'CSV' })).status, 201)
    await bill(h)
    // Consent withdrawn after the invoice was raised, before it is sent: what is sent follows it.
    assert.is((await h.request('PATCH', `/customers/${ids.withdrawn}`, { GDPRPECRConsentGiven: 'No' })).status, 200)
    const full = await invoiceOf(h, ids.full)
    assert.is(full.sentDate, null, 'not sent before the job runs')
    assert.equal((await deliveriesOf(h, full.id)).map((d: any) => [d.channel, d.recipient, d.billType, d.status]), [
      ['email', 'full@example.com', 'PDF + CSV', 'Pending'],
      ['email', 'copy@example.com', 'Summary Only', 'Pending'],
    ])
    await deliver(h)
    const to = (address: string) => sink.received.filter((m) => m.to && JSON.stringify(m.to).includes(address))
    const one = (address: string) => {
      const mails = to(address)
      assert.is(mails.length, 1, `one message to ${address}`)
      return mails[0]
    }
    assert.equal(attachmentNames(one('full@example.com')), ['csv', 'pdf'])
    assert.equal(attachmentNames(one('noc@example.com')), ['pdf'], 'PDF + CSV without consent: no calls CSV')
    assert.equal(attachmentNames(one('uy@example.com')), ['csv', 'pdf'], 'unset with consent: PDF + CSV')
    assert.equal(attachmentNames(one('un@example.com')), [], 'unset without consent: summary only')
    assert.equal(attachmentNames(one('csv@example.com')), ['csv'])
    assert.equal(attachmentNames(one('copy@example.com')), [], "the contact's own bill type")
    assert.equal(attachmentNames(one('shared@example.com')), ['pdf'], 'a shared contact associated with the customer gets its copy')
    assert.equal(attachmentNames(one('wd@example.com')), ['pdf'], 'consent withdrawn before sending: no calls CSV')
    assert.equal(attachmentNames(one('wd.contact@example.com')), [], "nor in the contact's copy")
    const withdrawn = await deliveriesOf(h, (await invoiceOf(h, ids.withdrawn)).id)
    assert.equal(withdrawn.map((d: any) => [d.recipient, d.billType, d.status]), [
      ['wd@example.com', 'PDF', 'Sent'],
      ['wd.contact@example.com', 'Summary Only', 'Sent'],
    ], 'each records what it went as')
    assert.is(to('none@example.com').length, 0)
    assert.is(to('sup@example.com').length, 0, 'a suppressed invoice is never sent')
    assert.is(sink.received.length, 9)
    const mail = one('full@example.com')
    assert.is(mail.from?.text, 'billing@example.com')
    assert.match(mail.subject!, /^Example Telecom Ltd: invoice INV-\d{6} for £0\.00, due 31 Jan 2026$/)
    assert.match(mail.text!, /Amount outstanding: £0\.00/)
    assert.match(one('un@example.com').text!, /Net: £0\.00/)
    const pdf = mail.attachments.find((a) => a.filename!.endsWith('.pdf'))!
    assert.is(pdf.content.subarray(0, 5).toString('latin1'), '%PDF-')
    assert.match(mail.attachments.find((a) => a.filename!.endsWith('.csv'))!.content.toString('utf8'), /^startTime,number,dialledNumber/)
    const sent = await invoiceOf(h, ids.full)
    assert.is(sent.sentDate, '2026-02-01')
    const after = await deliveriesOf(h, full.id)
    assert.ok(after.every((d: any) => d.status === 'Sent' && d.attempts === 1 && d.sentStamp && d.messageID?.startsWith('Q')), JSON.stringify(after))
    const post = await invoiceOf(h, ids.post)
    assert.equal((await deliveriesOf(h, post.id)).map((d: any) => [d.channel, d.status]), [['post', 'Sent'], ['fax', 'Skipped']])
    assert.is((await invoiceOf(h, ids.suppressed)).sentDate, null)
    assert.equal(await deliveriesOf(h, (await invoiceOf(h, ids.suppressed)).id), [])
    const events = ((await h.request('GET', '/events?limit=1000')).body as any[]).filter((e) => e.type === 'invoice.sent')
    assert.ok(events.some((e) => e.data.id === full.id && e.data.sentDate === '2026-02-01'))
    await deliver(h)
    assert.is(sink.received.length, 9, 'a Sent delivery is never sent again')
  })

  test('the usage report profile decides the CSV part: itemised, summary, both or none; a contact\'s own, else the customer\'s; resend the customer\'s', async ({ h, sink }) => {
    const id = await customerWithCalls(h, 'U-1', { email: 'usage@example.com', emailBillType: 'PDF + CSV', GDPRPECRConsentGiven: 'Yes', invoiceUsageReportCustomerProfile: 'Itemised + Summary' })
    const contacts: [string, string, string | null][] = [
      ['u.none@example.com', 'PDF + CSV', 'None'],
      ['u.csvnone@example.com', 'CSV', 'None'],
      ['u.summary@example.com', 'CSV', 'Summary'],
      ['u.inherit@example.com', 'CSV', null],
    ]
    for (const [email, emailBillType, profile] of contacts) {
      const r = await h.request('POST', `/customers/${id}/customerContacts`, { email, emailBillType, invoiceUsageReportCustomerProfile: profile })
      assert.is(r.status, 201, JSON.stringify(r.body))
    }
    await bill(h)
    await deliver(h)
    const one = (address: string) => {
      const mails = sink.received.filter((m) => (m.to as any).text === address)
      assert.is(mails.length, 1, `one message to ${address}`)
      return mails[0]
    }
    const files = (mail: ParsedMail) => mail.attachments.map((a) => a.filename!.replace(/^invoice-[^.-]+-\d+/, '')).sort()
    const csvOf = (mail: ParsedMail, suffix: string) => mail.attachments.find((a) => a.filename!.endsWith(suffix))!.content.toString('utf8')
    const customer = one('usage@example.com')
    assert.equal(files(customer), ['-calls-summary.csv', '-calls.csv', '.pdf'], 'Itemised + Summary: both usage reports')
    assert.match(customer.text!, 'Attached: the invoice (PDF), the itemised calls (CSV) and the calls summary (CSV).')
    // The summary: the itemised calls summed per number and class, exactly, and their total.
    const itemised = csvOf(customer, '-calls.csv').trim().split('\r\n').slice(1).map((l) => l.split(','))
    assert.is(itemised.length, 4)
    const summary = [
      'number,callType,calls,durationSeconds,cost',
      '0161 496 0201,mobile,1,30,0.0550',
      '0161 496 0201,national,2,180,0.0800',
      '0161 496 0202,national,1,90,0.0400',
      'Total,,4,300,0.1750',
    ].join('\r\n') + '\r\n'
    assert.is(csvOf(customer, '-calls-summary.csv'), summary)
    assert.is(itemised.map((cells) => cells[7]).join('+'), '0.0300+0.0550+0.0500+0.0400', 'the itemised costs the summary sums')
    assert.equal(files(one('u.none@example.com')), ['.pdf'], "the contact's own None: no usage report")
    const csvNone = one('u.csvnone@example.com')
    assert.equal(files(csvNone), [], 'CSV with None: nothing attached')
    assert.not.match(csvNone.text!, 'Attached')
    assert.match(csvNone.text!, 'Nothing is attached')
    const summaryOnly = one('u.summary@example.com')
    assert.equal(files(summaryOnly), ['-calls-summary.csv'])
    assert.is(csvOf(summaryOnly, '-calls-summary.csv'), summary)
    assert.match(summaryOnly.text!, 'Attached: the calls summary (CSV).')
    assert.equal(files(one('u.inherit@example.com')), ['-calls-summary.csv', '-calls.csv'], "a contact without one follows the customer's")
    // A resend, to any address, follows the customer's profile.
    assert.is((await h.request('PATCH', `/customers/${id}`, { invoiceUsageReportCustomerProfile: 'Summary' })).status, 200)
    const invoice = await invoiceOf(h, id)
    assert.is((await h.request('POST', `/invoices/${invoice.id}?action=resend`, { email: 'u.again@example.com' })).status, 200)
    await deliver(h)
    const again = one('u.again@example.com')
    assert.equal(files(again), ['-calls-summary.csv', '.pdf'])
    assert.is(csvOf(again, '-calls-summary.csv'), summary)
  })

  test('a refused message is retried with backoff until the server accepts it; after 24 hours it is Failed', async ({ h, sink }) => {
    const c = await customer(h, 'R-1', { email: 'retry@example.com', emailBillType: 'PDF' })
    const d = await customer(h, 'R-2', { email: 'never@example.com', emailBillType: 'PDF' })
    await bill(h)
    sink.state.refuse = true
    await deliver(h)
    const invoice = await invoiceOf(h, c)
    let [delivery] = await deliveriesOf(h, invoice.id)
    assert.equal([delivery.status, delivery.attempts], ['Pending', 1])
    assert.match(delivery.error, /451/)
    await deliver(h)
    assert.is((await deliveriesOf(h, invoice.id))[0].attempts, 1, 'not before its next attempt is due')
    h.clock.advanceMs(61_000)
    sink.state.refuse = false
    // R-2's went out too; it is made to fail for a day below.
    await deliver(h)
    ;[delivery] = await deliveriesOf(h, invoice.id)
    assert.equal([delivery.status, delivery.attempts, delivery.error], ['Sent', 2, null])
    assert.is(sink.received.filter((m) => JSON.stringify(m.to).includes('retry@example.com')).length, 1)
    // The other one, refused for a day: Failed, with an event. (Made never accepted: a Pending
    // delivery with a message ID was accepted and is only recorded.)
    const other = await invoiceOf(h, d)
    await h.platform.database.db.updateTable('invoice_deliveries').set({ status: 'Pending', nextAttemptStamp: '2026-02-02T09:00:00.000Z' as never, sentStamp: null, messageID: null, attempts: 3 }).where('invoiceID', '=', Number(other.id) as never).execute()
    h.clock.advanceMs(25 * 60 * 60 * 1000)
    sink.state.refuse = true
    await deliver(h)
    const [failed] = await deliveriesOf(h, other.id)
    assert.equal([failed.status, failed.attempts], ['Failed', 4])
    const events = ((await h.request('GET', '/events?limit=1000')).body as any[]).map((e) => `${e.type}:${e.data.id}`)
    assert.ok(events.includes(`invoice.delivery_failed:${other.id}`))
    // One first attempted more than a day after it was recorded (the worker down meanwhile):
    // its 24 hours count from that attempt, so it is retried.
    await h.platform.database.db.updateTable('invoice_deliveries').set({ status: 'Pending', nextAttemptStamp: null, sentStamp: null, messageID: null, attempts: 0, firstAttemptStamp: null }).where('invoiceID', '=', Number(invoice.id) as never).execute()
    await deliver(h)
    ;[delivery] = await deliveriesOf(h, invoice.id)
    assert.equal([delivery.status, delivery.attempts, delivery.firstAttemptStamp], ['Pending', 1, h.clock.now()], 'retried, not Failed')
  })

  test('a claim takes at most its limit, oldest first, and not again before its lease lapses', async ({ h }) => {
    const store = h.platform.context.store
    const at = (s: string) => s as never
    await store.invoiceOutbox.record(Array.from({ length: 25 }, (_, i) => ({ invoiceID: String(i + 1), customerID: '1', contactID: null, channel: 'email' as const, recipient: 'a@example.com', billType: 'PDF' as const, status: 'Pending' as const })), at('2026-02-01T09:00:00.000Z'))
    const claim = () => store.transaction((s) => s.invoiceOutbox.claim(at('2026-02-01T09:00:00.000Z'), at('2026-02-01T09:10:00.000Z'), 10))
    const first = await claim()
    const second = await claim()
    const third = await claim()
    assert.equal([first.length, second.length, third.length], [10, 10, 5])
    assert.is(new Set([...first, ...second, ...third].map((d) => d.id)).size, 25, 'no delivery claimed twice')
    assert.equal((await claim()).length, 0)
    assert.ok(first.every((d) => d.attempts === 1))
    await store.transaction((s) => s.invoiceOutbox.release(first.slice(5).map((d) => d.id), at('2026-02-01T09:00:01.000Z')))
    const again = await claim()
    assert.equal(again.map((d) => [d.id, d.attempts]), first.slice(5).map((d) => [d.id, 1]), 'released ones are due again, their attempt uncounted')
  })

  test('resend queues another email, to another address if given; not for a suppressed invoice', async ({ h, sink }) => {
    const c = await customer(h, 'S-1', { email: 'first@example.com', emailBillType: 'PDF' })
    await bill(h)
    await deliver(h)
    const invoice = await invoiceOf(h, c)
    const r = await h.request('POST', `/invoices/${invoice.id}?action=resend`, { email: 'accounts@example.org' })
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.is(r.body.id, invoice.id)
    assert.is((await h.request('POST', `/invoices/${invoice.id}?action=resend`, { email: 'nope' })).body.error_code, 400504)
    assert.is((await h.request('POST', `/invoices/${invoice.id}?action=resend`, {})).status, 200)
    await deliver(h)
    const recipients = sink.received.map((m) => (m.to as any).text).sort()
    assert.equal(recipients, ['accounts@example.org', 'first@example.com', 'first@example.com'])
    assert.is((await deliveriesOf(h, invoice.id)).length, 3)
  })

  test.run()
}

for (const target of activeTargets()) {
  const test = suite(`invoice delivery without SMTP: .eml files [${target}]`)
  test('each message is an .eml file under the mail directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'billing-mail-'))
    const h = await openHarness(target, { now: '2026-02-01T09:00:00Z', config: { mailDir: join(dir, 'mail') } })
    try {
      await customer(h, 'E-1', { email: 'eml@example.com', emailBillType: 'PDF', GDPRPECRConsentGiven: 'Yes' })
      await bill(h)
      await deliver(h)
      const files = readdirSync(join(dir, 'mail'))
      assert.is(files.length, 1)
      assert.match(files[0], /\.eml$/)
      const mail = await simpleParser(readFileSync(join(dir, 'mail', files[0])))
      assert.is((mail.to as any).text, 'eml@example.com')
      assert.equal(attachmentNames(mail), ['pdf'])
      const invoice = (await h.request('GET', '/invoices')).body[0]
      assert.is((await deliveriesOf(h, invoice.id))[0].messageID, files[0])
      assert.is(invoice.sentDate, '2026-02-01')
    } finally {
      await h.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
  test.run()
}
