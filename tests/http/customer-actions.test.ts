import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { scryptPasswordHasher } from '../../adapters/security/scrypt-password-hasher.js'
import { defaultPresets } from '../../core/presets/presets.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const brokenProviders = {
  ...defaultPresets,
  paymentProviders: [{ name: 'broken', label: 'Pay', type: 'cardPayment' as const, urlTemplate: 'not a url {paymentLinkUUID}' }],
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; broken: Harness }>(`http customer side-effect actions [${target}]`)
  test.before(async (ctx) => {
    // The platform's own hasher (scrypt), not the harness's quicker one: the PIN's hash is checked by it below.
    ctx.h = await openHarness(target, { config: { passwordHasher: undefined } })
    ctx.broken = await openHarness(target, { presets: brokenProviders })
  })
  test.after(async (ctx) => {
    await ctx.h.close()
    await ctx.broken.close()
  })

  test('generatePIN answers only a 6-digit PIN, stored as a hash that verifies', async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body
    const r = await h.request('POST', `/customers/${c.id}?action=generatePIN`, {})
    assert.is(r.status, 200)
    assert.equal(Object.keys(r.body), ['pin'])
    assert.match(r.body.pin, /^\d{6}$/)
    const stored = (await h.platform.context.store.repository('customers').get(c.id))!.portalPIN as string
    assert.not.ok(stored.includes(r.body.pin))
    assert.ok(await scryptPasswordHasher.verify(r.body.pin, stored))
    assert.is((await h.request('GET', `/customers/${c.id}`)).body.portalPIN, undefined, 'never on the wire')
    assert.is((await h.request('POST', `/customers/${c.id}?action=generatePIN`, { length: 8 })).body.error_code, 400504)
    const pins = new Set<string>()
    for (let i = 0; i < 5; i++) pins.add((await h.request('POST', `/customers/${c.id}?action=generatePIN`, {})).body.pin)
    assert.ok(pins.size > 1, 'PINs vary')
  })

  test('linkToAccounting validates the UUID; unlinkFromAccounting clears it', async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body
    assert.is((await h.request('POST', `/customers/${c.id}?action=linkToAccounting`, {})).body.error_code, 400503)
    for (const bad of ['nope', '0b8e0f0c-4f6a-4a8e-9a57', 42]) {
      assert.is((await h.request('POST', `/customers/${c.id}?action=linkToAccounting`, { accountingID: bad })).body.error_code, 400504)
    }
    const uuid = '0B8E0F0C-4F6A-4A8E-9A57-2D1C3E6F7A81'
    const linked = await h.request('POST', `/customers/${c.id}?action=linkToAccounting`, { accountingID: uuid })
    assert.is(linked.status, 200)
    assert.is(linked.body.accountingID, uuid.toLowerCase())
    assert.is((await h.request('PATCH', `/customers/${c.id}`, { accountingID: 'x' })).body.error_code, 400102, 'read-only')
    const unlinked = await h.request('POST', `/customers/${c.id}?action=unlinkFromAccounting`, {})
    assert.is(unlinked.body.accountingID, null)
  })

  test('generatePaymentLinks: needs a portal profile; one link per enabled type; [] when none', async ({ h }) => {
    const none = (await h.request('POST', '/customers', {})).body
    assert.is((await h.request('POST', `/customers/${none.id}?action=generatePaymentLinks`, {})).body.error_code, 400502)
    const full = (await h.request('POST', '/customers', { portalCustomerProfile: 'Standard Portal', accountNumber: 'PAY-1' })).body
    const r = await h.request('POST', `/customers/${full.id}?action=generatePaymentLinks`, {})
    assert.is(r.status, 200)
    assert.is(r.body.success, true)
    assert.match(r.body.paymentLinkUUID, /^[0-9a-f-]{36}$/)
    assert.equal(r.body.links.map((l: any) => l.type), ['cardPayment', 'directDebitSetup'])
    assert.ok(r.body.links[0].url.includes(r.body.paymentLinkUUID))
    assert.equal(Object.keys(r.body.links[0]).sort(), ['label', 'providerName', 'type', 'url'])
    const again = await h.request('POST', `/customers/${full.id}?action=generatePaymentLinks`, {})
    assert.is.not(again.body.paymentLinkUUID, r.body.paymentLinkUUID)
    const viewOnly = (await h.request('POST', '/customers', { portalCustomerProfile: 'View Only' })).body
    assert.equal((await h.request('POST', `/customers/${viewOnly.id}?action=generatePaymentLinks`, {})).body.links, [])
  })

  test('a failing payment provider → 500521 in the contract format', async ({ broken }) => {
    const c = (await broken.request('POST', '/customers', { portalCustomerProfile: 'Card Payments Only' })).body
    const r = await broken.request('POST', `/customers/${c.id}?action=generatePaymentLinks`, {})
    assert.is(r.status, 500)
    assert.is(r.body.error_code, 500521)
    assert.equal(Object.keys(r.body), ['error', 'error_code', 'hint'])
  })

  test.run()
}
