import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { signWebhook } from '../../adapters/webhooks/signature.js'
import { withProviderSecrets } from '../../apps/platform/config.js'
import { defaultPresets } from '../../core/presets/presets.js'
import { bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const SECRET = 'whsec_' + Buffer.from('a provider callback secret, 32b!').toString('base64')
const presets = withProviderSecrets(defaultPresets, { BILLING_PROVIDER_SECRET_STRIPE: SECRET, BILLING_PROVIDER_SECRET_GOCARDLESS: SECRET })

let n = 0
/** A signed payment.succeeded from `provider` under a new webhook-id. */
async function paid(h: Harness, provider: 'stripe' | 'gocardless', paymentLinkUUID: string, providerReference: string, amount: string) {
  const raw = JSON.stringify({ type: 'payment.succeeded', paymentLinkUUID, amount, currency: 'GBP', providerReference, occurredAt: '2026-03-02T08:00:00Z' })
  const id = `msg_ref_${++n}`
  const at = Math.floor(Date.parse(h.clock.now()) / 1000)
  const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': signWebhook(SECRET, id, at, raw) }
  const r = await h.request('POST', `/paymentProviders/${provider}/callbacks`, undefined, { key: null, raw, headers })
  assert.is(r.status, 200, r.text)
  return r.body.duplicate as boolean
}

const payments = async (h: Harness, c: string) =>
  (await h.request('GET', `/customers/${c}/transactions?transactionType=Payment`)).body.map((t: any) => [t.amount, t.paymentProvider, t.providerReference])

/**
 * Contract 15.1: "the same `providerReference` again changes nothing". A payment is its
 * provider's and its reference: two providers may both number theirs 1001, and the second's
 * payment is money received, not a copy of the first's.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`provider references are per provider [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { presets, now: '2026-03-02T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  /** A customer owing 100.00 and its link, made by both providers (card and Direct Debit). */
  async function customerWithLink(h: Harness) {
    h.clock.set('2026-01-05T09:00:00Z')
    const c = await newCustomer(h, { portalCustomerProfile: 'Standard Portal', paymentTerms: 14 })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31')
    h.clock.set('2026-03-02T09:00:00Z')
    const link = await h.request('POST', `/customers/${c}?action=generatePaymentLinks`, {})
    assert.equal(link.body.links.map((l: any) => l.providerName), ['stripe', 'gocardless'])
    return { c, uuid: link.body.paymentLinkUUID as string }
  }

  test("another provider's payment of the same reference is recorded; each provider's again is a duplicate", async ({ h }) => {
    const { c, uuid } = await customerWithLink(h)
    assert.is(await paid(h, 'stripe', uuid, '1001', '40.00'), false)
    assert.is(await paid(h, 'gocardless', uuid, '1001', '60.00'), false, "gocardless's 1001 is not stripe's")
    assert.equal(await payments(h, c), [[-40, 'stripe', '1001'], [-60, 'gocardless', '1001']])
    assert.is((await h.request('GET', `/customers/${c}/invoices`)).body[0].amountOutstanding, 0, 'both allocated')
    assert.is(await paid(h, 'stripe', uuid, '1001', '40.00'), true)
    assert.is(await paid(h, 'gocardless', uuid, '1001', '60.00'), true)
    assert.is((await h.request('GET', '/events?type=payment.received')).body.length, 2)
    const manual = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: -1, transactionDate: '2026-03-02', paymentProvider: 'stripe' })
    assert.is(manual.body.error_code, 400102, 'paymentProvider is read-only')
  })

  test("copies of both providers' payments of one reference arriving at once: one payment each", async ({ h }) => {
    const { c, uuid } = await customerWithLink(h)
    const providers = ['stripe', 'gocardless', 'stripe', 'gocardless', 'stripe', 'gocardless'] as const
    const answers = await Promise.all(providers.map((p) => paid(h, p, uuid, '2002', '10.00')))
    assert.is(answers.filter((duplicate) => !duplicate).length, 2, JSON.stringify(answers))
    assert.equal((await payments(h, c)).map(([, p]: string[]) => p).sort(), ['gocardless', 'stripe'])
  })

  test("a stored payment whose provider could not be told is taken for either provider's of its reference", async ({ h }) => {
    const { c, uuid } = await customerWithLink(h)
    assert.is(await paid(h, 'stripe', uuid, '3003', '25.00'), false)
    // As migration 0086 leaves a payment of before it whose provider nothing names.
    await h.platform.database.db.updateTable('transactions').set({ paymentProvider: null }).where('providerReference', '=', '3003').execute()
    assert.is(await paid(h, 'gocardless', uuid, '3003', '25.00'), true)
    assert.is(await paid(h, 'stripe', uuid, '3003', '25.00'), true)
    assert.equal(await payments(h, c), [[-25, null, '3003']])
  })

  test.run()
}
