import { describeChanges } from '../history/record-change.js'
import type { Customer } from '../fields/entity.js'
import { toWireJson } from '../fields/wire-json.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import type { CallbackOutcome } from './apply-callback.js'
import type { ProviderCallback } from './provider-callback.js'

const DIRECT_DEBIT = 'Direct Debit'
const CREATED = 'mandateCreated'
const CANCELLED = 'mandateCancelled'

/** A mandate callback as its history entry recorded it (`changes` of its reference and `occurredAt`). */
interface RecordedMandate {
  readonly action: string
  readonly providerReference: string
  readonly occurredAt: string
}

/**
 * Applies `mandate.created` or `mandate.cancelled` (contract 15.1) to the customer, whose row the
 * caller holds locked. Providers send them in any order, so what they did is decided by when they
 * occurred, not when they arrived: the mandate in force is the one created last (`occurredAt`),
 * unless it is cancelled. So a creation is stale (`duplicate`, nothing written) once a later
 * creation of another mandate, or a cancellation of the same one not earlier than it, is recorded;
 * a cancellation of a mandate the customer does not have (replaced since, or not created yet) is
 * recorded, to hold off its creation arriving late, and leaves the customer's payment method alone.
 */
export async function changeMandate(ctx: PlatformContext, store: Store, customer: Customer, callback: ProviderCallback): Promise<CallbackOutcome> {
  const created = callback.type === 'mandate.created'
  const { providerReference: reference, occurredAt } = callback
  // What the entry carries besides the customer's fields: what the lookup below reads back.
  const said = { providerReference: [null, reference], occurredAt: [null, occurredAt] } as const
  if (created) {
    if (customer.directDebitMandate === reference && customer.paymentMethod === DIRECT_DEBIT) return 'duplicate'
    const stale = (await recordedMandates(store, customer.id)).some((m) =>
      m.action === CREATED ? m.providerReference !== reference && m.occurredAt > occurredAt : m.providerReference === reference && m.occurredAt >= occurredAt,
    )
    if (stale) return 'duplicate'
  } else if (customer.directDebitMandate !== reference) {
    const entry = { resource: 'customers', resourceID: customer.id, customerID: customer.id, action: CANCELLED, changes: said, createdStamp: ctx.clock.now() }
    // Nothing of the customer changed: a history entry, and no `mandate.changed` event.
    await store.changes.append([entry], [])
    return 'recorded'
  }
  const values = created
    ? { paymentMethod: DIRECT_DEBIT, directDebitMandate: reference }
    : { directDebitMandate: null, ...(customer.paymentMethod === DIRECT_DEBIT ? { paymentMethod: null } : {}) }
  const after = (await store.repository('customers').update(customer.id, { ...values, updatedStamp: ctx.clock.now() }))!
  const customers = ctx.resources.get('customers')!
  const { entries } = describeChanges([{ resource: customers, action: created ? CREATED : CANCELLED, before: customer, after }], ctx.clock)
  await store.changes.append(
    entries.map((e) => ({ ...e, changes: { ...e.changes, ...said } })),
    [{ type: 'mandate.changed', data: toWireJson(customers, after), createdStamp: ctx.clock.now() }],
  )
  return 'recorded'
}

/**
 * The customer's mandate callbacks recorded, in one query on history's (resource, resourceID)
 * index: a customer has a handful. Entries written before they carried `occurredAt` tell no order
 * and are left out.
 */
async function recordedMandates(store: Store, customerID: string): Promise<RecordedMandate[]> {
  const entries = await store.repository('history').list({
    where: [
      { op: 'eq', column: 'resource', value: 'customers' },
      { op: 'eq', column: 'resourceID', value: customerID },
      { op: 'in', column: 'action', values: [CREATED, CANCELLED] },
    ],
    limit: Number.MAX_SAFE_INTEGER,
  })
  const out: RecordedMandate[] = []
  for (const e of entries) {
    const changes = e.changes as Record<string, readonly unknown[]> | null
    const [reference, at] = [changes?.providerReference?.[1], changes?.occurredAt?.[1]]
    if (typeof reference === 'string' && typeof at === 'string') out.push({ action: e.action as string, providerReference: reference, occurredAt: at })
  }
  return out
}
