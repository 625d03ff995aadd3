import { objectBody } from '../actions/item-actions.js'
import { BillingError, notFound } from '../errors.js'
import type { Item, Values } from '../fields/item.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { createItem, updateItem } from '../resources/resources.js'

const settable = ['Pending', 'Requested'] as const
const lockedDates = ['invoiceDate', 'cutoffDate', 'transactionCutoffDate', 'dueDate'] as const

/** A run is in progress from its request until it completes or fails. */
const inProgress = (status: unknown) => status === 'Requested' || status === 'Running'

function checkStatus(body: Record<string, unknown>): void {
  const status = body.status
  if (status !== undefined && status !== null && !(settable as readonly unknown[]).includes(status)) {
    throw new BillingError(
      'invalid_field',
      `A billing run's status can only be set to Pending or Requested (got ${JSON.stringify(status)})`,
      'Create it Pending, then PATCH status to "Requested" to start it; Running, Complete and Failed are set by the run.',
    )
  }
}

async function assertNoneInProgress(store: Store, except?: string): Promise<void> {
  const running = await store.repository('billingRuns').list({ where: [{ op: 'in', column: 'status', values: ['Requested', 'Running'] }], limit: 2 })
  const other = running.find((r) => r.id !== except)
  if (other) {
    throw new BillingError('locked', `Billing run ${other.id} is already in progress`, 'Wait until it completes, then request this one.')
  }
}

function assertDates(values: Values, current: Item | null): void {
  const cutoff = (values.cutoffDate ?? current?.cutoffDate) as string | null | undefined
  if (values.status === 'Requested' && !cutoff) {
    throw new BillingError('invalid_field', 'A billing run needs a cutoffDate before it is requested', 'Give cutoffDate (YYYY-MM-DD).')
  }
}

/** Creates a run, Pending (default) or Requested to start at once. */
export async function createBillingRun(ctx: PlatformContext, input: unknown): Promise<Item> {
  const body = objectBody(input)
  checkStatus(body)
  return ctx.store.transaction(async (store) => {
    await store.lock('billing-runs')
    const status = (body.status as string | undefined) ?? 'Pending'
    if (status === 'Requested') await assertNoneInProgress(store)
    assertDates({ ...body, status } as Values, null)
    return createItem({ ...ctx, store }, ctx.resources.get('billingRuns')!, { ...body, status })
  })
}

/** Updates a Pending run; `status: "Requested"` starts it and locks its dates (409003 after). */
export async function updateBillingRun(ctx: PlatformContext, id: string, input: unknown): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    await store.lock('billing-runs')
    const current = await store.repository('billingRuns').getForUpdate(id)
    if (!current) throw notFound('billing run', id)
    const body = objectBody(input)
    checkStatus(body)
    if (current.status !== 'Pending') {
      const changing = [...lockedDates, 'status', 'name'].filter((f) => f in body && body[f] !== current[f])
      if (changing.length) {
        throw new BillingError('locked', `Billing run ${id} is ${current.status}: its ${changing.join(', ')} can no longer change`, 'Create a new billing run.')
      }
      return current
    }
    if (body.status === 'Requested') await assertNoneInProgress(store, id)
    assertDates(body as Values, current)
    return updateItem({ ...ctx, store }, ctx.resources.get('billingRuns')!, id, body)
  })
}

/** Deletes a run that has not been requested. */
export async function deleteBillingRun(ctx: PlatformContext, id: string): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    const current = await store.repository('billingRuns').getForUpdate(id)
    if (!current) throw notFound('billing run', id)
    if (current.status !== 'Pending') {
      throw new BillingError('locked', `Billing run ${id} is ${current.status} and cannot be deleted`, 'Only a Pending run can be deleted.')
    }
    await store.repository('billingRuns').remove(id)
    return current
  })
}

export { inProgress }
