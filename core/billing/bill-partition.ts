import type { BillingRun } from '../fields/entity.js'
import type { DateOnly } from '../dates/date-only.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import type { RunPartition } from '../ports/run-partitions.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import { ZERO, type Money } from '../money/money.js'
import { settleAccounts } from './settle-accounts.js'
import { announceRaisedOverdue } from './finalise-invoices.js'
import { planBatch, readPage, writeBatch, type BatchOutcome, type RunPage } from './bill-batch.js'
import { progressValues, runProgress, type RunProgress } from './run-progress.js'
import type { RunExecution } from './run-execution.js'
import { markRunCalls } from './run-call-mark.js'
import { approveDrafts, draftsOf, readDrafts, type DraftPage } from './approve-drafts.js'
import type { RunCustomer } from '../ports/run-fields.js'

/**
 * Batches a transaction bills before it commits. Batches are small for memory's sake (see
 * `RunOptions.batchFeatures`); a commit has a fixed cost besides the pages it writes, which a
 * few batches per transaction share (bench/billing-run.ts; figures in bench/RESULTS.md), and a
 * transaction of three still holds the write lock only briefly.
 */
const TRANSACTION_BATCHES = 3

/**
 * An approval's batch is this many of a run's most (`RunOptions.batchSize`): it plans nothing, so
 * a customer holds an invoice there, not its features and ledger, and each of its statements
 * (drafts read, numbers, invoices written, events, deliveries) serves a batch: fewer of them
 * took the approval's cost nearer a run's finishing alone (bench/review-run.ts).
 */
const APPROVAL_BATCH_FACTOR = 4

/** Thrown inside a step whose partition's lease was taken over: the step rolls back. */
class LeaseLost extends Error {}

/**
 * Bills a claimed partition from its progress to its end, a transaction at a time (an approved
 * review run's: finalises its drafts, contract 16.1). Each step
 * commits its batches with the partition's progress (and the lease's extension) and the run's
 * progress summed over its partitions, so a worker killed mid-step loses only that step: the
 * partition is claimed again once the lease lapses and resumes after its last committed
 * customer. Returns when the partition is done, its lease was lost, or the execution is asked
 * to stop (the lease is then given up so another worker may take the partition at once).
 */
export async function billPartition(ctx: PlatformContext, planned: BillingRun, cutoff: DateOnly, partition: RunPartition, exec: RunExecution): Promise<void> {
  // An approved review run only finalises its drafts: it bills no calls.
  const run = planned.status === 'Approved' ? planned : await markRunCalls(ctx, planned)
  let after = partition.progressCustomerID
  let pageSize = Math.min(exec.batchSize, Math.ceil(exec.batchFeatures / 10))
  // An approved review run's next customers, read while a step is written (a run's pages are read in their step: billStep).
  let next: Promise<RunCustomer[]> | null = null
  for (;;) {
    if (exec.signal?.aborted) return ctx.store.runPartitions.release(partition.id, exec.holder)
    let step: Awaited<ReturnType<typeof billStep>>
    try {
      const first = next
      step = await ctx.store.pipelinedTransaction((store, reads) => billStep({ ...ctx, store }, reads, run, cutoff, partition, exec, after, pageSize, first))
    } catch (error) {
      if (error instanceof LeaseLost) return
      throw error
    }
    after = step.last
    pageSize = step.size
    next = step.next
    exec.add(step)
    if (step.progress && step.customers > 0) exec.onProgress?.(step.progress)
    if (step.finished) return
  }
}

/**
 * One transaction of a partition: up to TRANSACTION_BATCHES batches, then the partition's and the
 * run's progress. A batch is read and planned on `reads` while the one before it is written
 * (`Store.pipelinedTransaction`): on Postgres the server makes one batch's inserts while this
 * process plans the next (bench/RESULTS.md).
 */
async function billStep(ctx: PlatformContext, reads: Store, run: BillingRun, cutoff: DateOnly, partition: RunPartition, exec: RunExecution, after: string, size: number, first: Promise<RunCustomer[]> | null) {
  const { store } = ctx
  const done = { last: after, size, customers: 0, invoices: 0, writes: 0, finished: false, progress: null as RunProgress | null, next: null as Promise<RunCustomer[]> | null }
  const settle: string[] = []
  const invoiced: string[] = []
  const overdue: string[] = []
  const touched: string[] = []
  const limited = new Set<string>()
  const callsBilled: string[] = []
  const absorb = (batch: BatchOutcome) => {
    settle.push(...batch.settle)
    invoiced.push(...batch.invoiced)
    overdue.push(...batch.raisedOverdue)
    touched.push(...batch.touched)
    callsBilled.push(...batch.callsBilled)
    for (const id of batch.limited) limited.add(id)
    done.invoices += batch.invoices
    done.writes += batch.writes
  }
  // Each batch's writes are sent, not awaited: the next batch is planned while they are made.
  const written: Promise<void>[] = []
  // The page read while the batch before it was written.
  let next: Promise<RunPage | DraftPage> | null = first && first.then((customers) => draftsOf(reads, run, customers))
  // A run's customers are locked before its pages are read: a charge change or a lifecycle action
  // (which locks its customer) committed before is read by the plan, one made since waits for the
  // step's commit. The lock is the step's, so no page is read before its step (on another connection
  // it would be the last commit's). Pages are at most `batchSize` customers: the step's fit the lock.
  const approval = run.status === 'Approved'
  const locked = approval ? null : await store.runSource.lockCustomersAfter(after, TRANSACTION_BATCHES * exec.batchSize, partition.lastCustomerID)
  const through = locked ?? partition.lastCustomerID
  try {
    for (let b = 0; b < TRANSACTION_BATCHES && !(b > 0 && exec.signal?.aborted); b++) {
      if (approval) {
        // An approved review run (contract 16.1): the page's drafts made final, nothing planned;
        // the next page is read while they are written, as a run's (below).
        const page = await ((next as Promise<DraftPage> | null) ?? readDrafts(reads, run, done.last, exec.batchSize * APPROVAL_BATCH_FACTOR, partition.lastCustomerID))
        next = null
        if (page.customers.length === 0) {
          done.finished = true
          break
        }
        done.last = page.customers.at(-1)!.id
        done.customers += page.customers.length
        if (b + 1 < TRANSACTION_BATCHES) {
          next = readDrafts(reads, run, done.last, exec.batchSize * APPROVAL_BATCH_FACTOR, partition.lastCustomerID)
          next.catch(() => undefined)
        } else if (reads !== store) {
          // Across the commit only the customers, read on the pages' connection: the rest of `reads`
          // may be this transaction's (a SQLite file's), so the drafts are read by the next step.
          done.next = reads.runSource.customersAfter(done.last, exec.batchSize * APPROVAL_BATCH_FACTOR, partition.lastCustomerID)
          done.next.catch(() => undefined)
        }
        const outcome = await approveDrafts(ctx, store, run, page)
        written.push(outcome.written)
        absorb(outcome)
        continue
      }
      const page = await ((next as Promise<RunPage> | null) ?? readPage(reads, done.last, done.size, through))
      next = null
      // Empty only at the partition's end: customers locked are not deleted, nor new ones given lower IDs.
      if (page.customers.length === 0) {
        done.finished = true
        break
      }
      const batch = await planBatch(ctx, reads, run, cutoff, page)
      done.last = page.customers.at(-1)!.id
      done.customers += page.customers.length
      // Sized from this batch's planned features per customer: memory follows what is planned,
      // and a feature skipped as reconciled holds little (a rerun of a cutoff takes whole pages).
      done.size = batch.planned === 0 ? exec.batchSize : Math.max(1, Math.min(exec.batchSize, Math.floor((exec.batchFeatures * page.customers.length) / batch.planned)))
      // The next page is read while this batch is written: on another connection (Postgres), or a
      // SQLite file's reads thread, the two go on at once. Its customers are not this batch's, and
      // are locked: this step's.
      if (b + 1 < TRANSACTION_BATCHES) {
        next = readPage(reads, done.last, done.size, through)
        // Left unread if the step stops or fails first.
        next.catch(() => undefined)
      }
      const outcome = await writeBatch(ctx, store, run, cutoff, batch, exec.numbers)
      written.push(outcome.written)
      absorb(outcome)
    }
    await Promise.all(written)
    if (done.finished) done.next = null
  } catch (error) {
    // The transaction rolls back once the writes under way are answered, never beside them.
    await Promise.allSettled(written)
    throw error
  }
  // Once the batches' objects are gone, and for the step's batches at once (a third of the
  // statements; bench/RESULTS.md): held credit allocated to their new invoices, then the credit
  // alerts of the customers the step wrote to that have a limit (contract 10.3, 10.6). A number's
  // limit measures its unbilled calls, which a run only lowers, but for the pence its calls'
  // charges are rounded up to: numbers' limits are read only when some number has one, for the
  // customers whose calls the step billed (pages in ID order, so a range).
  // Credit held is read here, in the transaction, not with the page: a payment made since the page
  // was read is allocated too.
  const held = invoiced.length ? await store.receivables.heldCredits(invoiced) : new Map<string, Money>()
  const credits = new Set(settle)
  const statuses = await settleAccounts(store, invoiced.filter((id) => credits.has(id) || (held.get(id) ?? ZERO) > 0n), ctx.clock.today(), ctx.clock.now(), { alerts: false })
  // Those raised already overdue, after their allocation: one that held credit paid is not (none: no statement).
  await announceRaisedOverdue(store, overdue, statuses, ctx.clock.now())
  const byNumber = exec.numbers.creditLimits && callsBilled.length > 0 ? new Set(await store.creditControl.withNumberCreditLimitsBetween(callsBilled[0], callsBilled.at(-1)!)) : null
  const billed = new Set(callsBilled)
  await refreshCreditAlerts(store, touched.filter((id) => limited.has(id) || (billed.has(id) && byNumber?.has(id))), ctx.clock.now(), {
    candidates: true,
    expectedSpendAlertRatio: ctx.presets.expectedSpendAlertRatio,
    // A profile's onCreditLimit acts after runs and usage imports (contract 15.2).
    act: ctx,
  })
  const step = { progressCustomerID: done.last, customers: done.customers, invoices: done.invoices, done: done.finished }
  if (!(await store.runPartitions.advance(partition.id, exec.holder, exec.leaseMs, step))) throw new LeaseLost()
  // The run's row last: every worker's steps update it, so it stays locked only while this one commits.
  const totals = await store.runPartitions.totals(run.id)
  done.progress = runProgress(run.id, totals, { startedAt: exec.startedAt, customers: exec.customers + done.customers }, ctx.clock.now())
  await store.repository('billingRuns').update(run.id, progressValues(done.progress))
  return done
}
