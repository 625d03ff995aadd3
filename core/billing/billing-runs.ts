import { recordChanges } from '../history/record-change.js'
import { BillingError, notFound } from '../errors.js'
import type { BillingRun } from '../fields/entity.js'
import { objectBody } from '../input/object-body.js'
import type { PlatformContext } from '../platform.js'
import type { BillingRunStatus } from '../presets/engine-lists.js'
import type { Store } from '../ports/store.js'
import { createItem, updateItem } from '../resources/resources.js'
import { catalogue } from '../fields/catalogue.js'
import { ZERO } from '../money/money.js'
import { RUN_DERIVES } from './approve-drafts.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import { reallocateDiscarded } from './discarded-allowances.js'
import { assertNoDraftsHeld, assertNoWorkerOn, failedAfterReview } from './failed-review-runs.js'
import { unmarkDiscardedFinals } from './final-invoiced.js'

const settable: readonly unknown[] = ['Pending', 'Requested'] satisfies BillingRunStatus[]
/** What a run in Review, or a review run that failed, may be set to (contract 16.1). */
const reviewed: readonly unknown[] = ['Approved', 'Discarded'] satisfies BillingRunStatus[]
/** A run whose drafts wait for a decision: in Review, or a review run that failed, with what drafts it left (failed-review-runs.ts). */
const decidable = (run: BillingRun) => run.status === 'Review' || (run.status === 'Failed' && run.review === true)
const lockedDates = ['invoiceDate', 'cutoffDate', 'transactionCutoffDate', 'dueDate', 'review'] as const
/** A run in Review holds its drafts' charges, so no other run may start until it is approved or discarded. */
const inProgressStatuses = ['Requested', 'Running', 'Review', 'Approved'] as const satisfies BillingRunStatus[]

/** A run is in progress from its request until it completes or fails. */
const inProgress = (status: unknown) => (inProgressStatuses as readonly unknown[]).includes(status)

function checkStatus(body: Record<string, unknown>): void {
  const status = body.status
  if (status !== undefined && status !== null && !settable.includes(status)) {
    throw new BillingError(
      'invalid_field',
      `A billing run's status can only be set to Pending or Requested, or Approved or Discarded while it is in Review (or Failed, a review run) (got ${JSON.stringify(status)})`,
      'Create it Pending, then PATCH status to "Requested" to start it; Running, Review, Complete and Failed are set by the run.',
    )
  }
}

async function assertNoneInProgress(store: Store, except?: string): Promise<void> {
  const running = await store.repository('billingRuns').list({ where: [{ op: 'in', column: 'status', values: inProgressStatuses }], limit: 2 })
  const other = running.find((r) => r.id !== except)
  if (other) {
    throw new BillingError('locked', `Billing run ${other.id} is already in progress`, 'Wait until it completes, then request this one.')
  }
  await assertNoDraftsHeld(store)
}

/** A run is requested only with a cutoff date: given in the body (before it is checked), or stored. */
function assertDates(body: Record<string, unknown>, current: BillingRun | null): void {
  const cutoff = body.cutoffDate ?? current?.cutoffDate
  if (body.status === 'Requested' && !cutoff) {
    throw new BillingError('invalid_field', 'A billing run needs a cutoffDate before it is requested', 'Give cutoffDate (YYYY-MM-DD).')
  }
}

/** Creates a run, Pending (default) or Requested to start at once. */
export async function createBillingRun(ctx: PlatformContext, input: unknown): Promise<BillingRun> {
  const body = objectBody(input)
  checkStatus(body)
  return ctx.store.transaction(async (store) => {
    await store.lock('billing-runs')
    const status = body.status ?? 'Pending'
    if (status === 'Requested') await assertNoneInProgress(store)
    assertDates({ ...body, status }, null)
    return createItem({ ...ctx, store }, catalogue.billingRuns, { ...body, status })
  })
}

/**
 * Updates a Pending run; `status: "Requested"` starts it and locks its dates (409003 after). A
 * run in Review takes `status: "Approved"` or `"Discarded"` (contract 16.1).
 */
export async function updateBillingRun(ctx: PlatformContext, id: string, input: unknown): Promise<BillingRun> {
  return ctx.store.transaction(async (store) => {
    await store.lock('billing-runs')
    const current = await store.repository('billingRuns').getForUpdate(id)
    if (!current) throw notFound('billing run', id)
    const body = objectBody(input)
    if (decidable(current) && reviewed.includes(body.status)) return review(ctx, store, current, body)
    checkStatus(body)
    if (current.status !== 'Pending') {
      const changing = ([...lockedDates, 'status', 'name'] as const).filter((f) => body[f] !== undefined && body[f] !== current[f])
      if (changing.length) {
        throw new BillingError('locked', `Billing run ${id} is ${current.status}: its ${changing.join(', ')} can no longer change`, 'Create a new billing run.')
      }
      return current
    }
    if (body.status === 'Requested') await assertNoneInProgress(store, id)
    assertDates(body, current)
    return updateItem({ ...ctx, store }, catalogue.billingRuns, id, body)
  })
}

/**
 * Approves or discards a run in Review (contract 16.1), with nothing else changed. Approved: its
 * partitions open again and the workers finalise its drafts as they bill a run (run-billing.ts);
 * Discarded: its drafts go with the rows it derived (`RUN_DERIVES`: its calls' rows, minimums),
 * and the charges it found stay unapproved for a corrected run; its calls' months are allocated
 * again (`reallocateDiscarded`), now that they are unbilled, and the final bills its drafts
 * marked are to come again (`unmarkDiscardedFinals`). The rows' going moves their customers'
 * balance and unbilled calls: their credit alerts are measured again in the same transaction,
 * as the drafting measured them (contract 10.6).
 *
 * A review run that failed is decided the same way, once no worker is left on it, for the drafts
 * it still holds: discarded (the invoices a failed approval numbered stay, and the run's totals
 * are theirs), or approved again when it failed while approved (`failedAfterReview`), its
 * failure cleared: the workers finalise the drafts left.
 */
async function review(ctx: PlatformContext, store: Store, current: BillingRun, body: Record<string, unknown>): Promise<BillingRun> {
  const changing = Object.keys(body).filter((f) => f !== 'status' && body[f] !== undefined && body[f] !== current[f as keyof BillingRun])
  if (changing.length) {
    throw new BillingError('locked', `Billing run ${current.id} is ${current.status}: its ${changing.join(', ')} can no longer change`, 'Approve or discard it; a corrected run is a new one.')
  }
  const failed = current.status === 'Failed'
  if (failed) {
    await assertNoWorkerOn(store, current)
    if (body.status === 'Approved' && !(await failedAfterReview(store, current))) {
      throw new BillingError(
        'invalid_field',
        `Billing run ${current.id} failed while drafting: its drafts are not the whole run, and only a run drafted whole is approved`,
        'Discard it (PATCH status "Discarded"), then request a corrected run.',
      )
    }
  }
  const now = ctx.clock.now()
  const runs = store.repository('billingRuns')
  let totals = { invoiceAmount: ZERO, invoiceCount: 0 }
  if (body.status === 'Approved') {
    await store.runPartitions.restart(current.id)
  } else {
    // Taken first, it waits for the imports under way and holds off new ones to the commit: an
    // import beside the discard would allocate against the drafted calls as billed (call-marks.ts).
    await store.callMarks.advance()
    await unmarkDiscardedFinals(store, current.id)
    const { customers, calls } = await store.ledger.discardDrafts(current.id, RUN_DERIVES)
    await reallocateDiscarded(ctx, store, calls, now)
    await refreshCreditAlerts(store, customers, now, { act: ctx })
    if (failed) {
      const issued = await store.ledger.runInvoiceTotals(current.id)
      totals = { invoiceAmount: issued.amount, invoiceCount: issued.count }
    }
  }
  const after = (await runs.update(current.id, {
    status: body.status as BillingRunStatus,
    ...(body.status === 'Discarded' ? { completedDate: now, ...totals } : {}),
    ...(body.status === 'Approved' && failed ? { failureReason: null } : {}),
    updatedStamp: now,
  }))!
  await recordChanges(store, ctx.clock, [{ resource: catalogue.billingRuns, action: 'update', before: current, after }])
  return after
}

/** Deletes a run that has not been requested. */
export async function deleteBillingRun(ctx: PlatformContext, id: string): Promise<BillingRun> {
  return ctx.store.transaction(async (store) => {
    const current = await store.repository('billingRuns').getForUpdate(id)
    if (!current) throw notFound('billing run', id)
    if (current.status !== 'Pending') {
      throw new BillingError('locked', `Billing run ${id} is ${current.status} and cannot be deleted`, 'Only a Pending run can be deleted.')
    }
    await store.repository('billingRuns').remove(id)
    await recordChanges(store, ctx.clock, [{ resource: catalogue.billingRuns, action: 'delete', before: current, after: null }])
    return current
  })
}

export { inProgress }
