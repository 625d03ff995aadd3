import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SmtpMailer } from '../../adapters/delivery/smtp-mailer.js'
import { KyselyInvoiceOutbox } from '../../adapters/persistence/repositories/kysely-invoice-outbox.js'
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

async function bill(h: Harness) {
  await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested' })
  const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
  await scheduler.runNow('billing-poll')
  await scheduler.stop()
}

/**
 * Makes recording a delivery as sent fail (setting the invoice's `sentDate`, inside the
 * transaction that marks the delivery `Sent`, so that rolls back too) while `failing()` says so:
 * a deadlock or a busy database after the SMTP server accepted the message.
 */
function failRecording(failing: () => boolean): () => void {
  const original = KyselyInvoiceOutbox.prototype.markInvoiceSent
  KyselyInvoiceOutbox.prototype.markInvoiceSent = function (this: KyselyInvoiceOutbox, ...args) {
    if (failing()) return Promise.reject(new Error('simulated failure while recording'))
    return original.apply(this, args)
  }
  return () => {
    KyselyInvoiceOutbox.prototype.markInvoiceSent = original
  }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; sink: Sink }>(`invoice delivery whose recording fails after the server accepted it [${target}]`)
  test.before(async (ctx) => {
    ctx.sink = await startSmtpSink()
  })
  test.after(async (ctx) => ctx.sink.close())
  test.before.each(async (ctx) => {
    ctx.sink.received.length = 0
    ctx.h = await openHarness(target, { now: '2026-02-01T09:00:00Z', config: { mailer: new SmtpMailer(ctx.sink.url) } })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('a failed recording is retried alone: one message, then Sent, never a failed attempt (contract 14.2)', async ({ h, sink }) => {
    // PDF + CSV without consent goes as PDF: the bill type it went as is kept with the message.
    const created = await h.request('POST', '/customers', { accountNumber: 'REC-1', email: 'rec@example.com', emailBillType: 'PDF + CSV', GDPRPECRConsentGiven: 'No', emptyInvoiceAction: 'Send' })
    assert.is(created.status, 201, JSON.stringify(created.body))
    await bill(h)
    const invoice = ((await h.request('GET', `/customers/${created.body.id}/invoices`)).body as any[])[0]
    const deliveries = async () => (await h.request('GET', `/invoices/${invoice.id}/deliveries`)).body as any[]
    let failing = true
    const restore = failRecording(() => failing)
    try {
      await deliver(h)
      assert.is(sink.received.length, 1, 'the server accepted it')
      let [d] = await deliveries()
      assert.equal([d.status, d.attempts, d.billType, d.sentStamp], ['Pending', 1, 'PDF', null], JSON.stringify(d))
      assert.match(d.messageID, /^Q1$/, 'the accepted message is kept')
      assert.match(d.error, /simulated failure while recording/)
      const messageID = d.messageID
      // Recording keeps failing for more than a day: never sent again, never Failed.
      for (let i = 0; i < 26; i++) {
        h.clock.advanceMs(61 * 60_000)
        await deliver(h)
      }
      ;[d] = await deliveries()
      assert.is(sink.received.length, 1, 'never sent again while it cannot be recorded')
      assert.equal([d.status, d.attempts, d.messageID], ['Pending', 1, messageID], JSON.stringify(d))
      failing = false
      h.clock.advanceMs(61 * 60_000)
      await deliver(h)
      ;[d] = await deliveries()
      assert.equal([d.status, d.attempts, d.messageID, d.billType, d.error], ['Sent', 1, messageID, 'PDF', null], JSON.stringify(d))
      assert.ok(d.sentStamp)
      assert.is(sink.received.length, 1, 'one message in all')
      assert.ok((await h.request('GET', `/invoices/${invoice.id}`)).body.sentDate, 'the invoice is recorded as sent')
      const events = ((await h.request('GET', '/events?limit=1000')).body as any[]).map((e) => e.type)
      assert.ok(events.includes('invoice.sent'))
      assert.not.ok(events.includes('invoice.delivery_failed'))
      h.clock.advanceMs(61 * 60_000)
      await deliver(h)
      assert.is(sink.received.length, 1, 'a Sent delivery is never sent again')
    } finally {
      restore()
    }
  })

  test('one failed recording: recorded on the next pass without sending', async ({ h, sink }) => {
    const created = await h.request('POST', '/customers', { accountNumber: 'REC-2', email: 'once@example.com', emailBillType: 'PDF', emptyInvoiceAction: 'Send' })
    assert.is(created.status, 201, JSON.stringify(created.body))
    await bill(h)
    const invoice = ((await h.request('GET', `/customers/${created.body.id}/invoices`)).body as any[])[0]
    let calls = 0
    const restore = failRecording(() => ++calls === 1)
    try {
      await deliver(h)
      await deliver(h)
      assert.is((await h.request('GET', `/invoices/${invoice.id}/deliveries`)).body[0].status, 'Pending', 'not before its next try is due')
      h.clock.advanceMs(61_000)
      await deliver(h)
      const [d] = (await h.request('GET', `/invoices/${invoice.id}/deliveries`)).body as any[]
      assert.equal([d.status, d.attempts, d.messageID], ['Sent', 1, 'Q1'])
      assert.is(sink.received.length, 1)
    } finally {
      restore()
    }
  })

  test.run()
}
