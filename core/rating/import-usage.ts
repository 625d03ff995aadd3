import { appendEvents } from '../history/record-change.js'
import type { Item } from '../fields/item.js'
import type { Stamp } from '../dates/stamp.js'
import type { Digest } from '../ports/digest.js'
import type { PlatformContext } from '../platform.js'
import type { NewCall } from '../ports/rating-data.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import type { Store } from '../ports/store.js'
import { isRated, rateRecord } from './rate-record.js'
import { reallocateAllowances } from './reallocate-allowances.js'
import { loadBatchContext, loadRatingShared, TouchedMonths, type BatchContext } from './rating-context.js'
import { UsageFileReader, type UsageLine } from './usage-file-reader.js'
import { usageFingerprint } from './usage-fingerprint.js'
import type { UsageRecord } from './usage-record.js'
import { onlyDefault, resolveDestinations, resolveInDefault, type DestinationLookup } from './resolve-destinations.js'
import { destinationTablesOf } from './destination-cache.js'
import { lookedUpKeys, speltCarrierKeys, storedUnderOlderKeys } from './older-keys.js'
import type { CallClass } from '../fields/call-classes.js'

/**
 * Records looked up, rated and written together. A batch lives across its lookups and its insert,
 * long enough for V8 to move it to the old generation: larger batches raised the server's peak
 * RSS at the same CPU per row (bench/rating.ts; figures in bench/RESULTS.md).
 */
export const IMPORT_BATCH = 1000

/**
 * Batches looked up ahead of the one being rated and written. A lookup on the other connection
 * is a few statements, each sent once the last one's rows are back, so it spans some of the
 * writes before it; two ahead hold one more batch of records (1,000) and measured no slower than
 * one (bench/rating.ts; figures in bench/RESULTS.md).
 */
const LOOKAHEAD = 2

/**
 * Inserts sent and not yet answered, at most. With one, a SQLite file's writes thread sat idle
 * between batches while this process took the answer, made the next batch's message and sent it
 * (4 s of a 28 s import); with two, the next batch waits at the writer (bench/RESULTS.md).
 */
const WRITES_AHEAD = 2

/**
 * Records read between turns of the event loop. A batch of records the parser holds already
 * comes as a settled promise, so reading runs on without a turn, and the lookups' answers
 * (messages, socket reads) would wait for the next batch's write to end before the lookup's next
 * statement is sent.
 */
const TURN_EVERY = 200
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Customers' months waiting for their allowances to be allocated, before they are allocated
 * mid-import (`ImportOptions.allocateAt`): a few MB of IDs at most. An allocation holds up the
 * import (it reads and writes on the import's connection), and a month touched again after it
 * is allocated again: with 20,000, a 1,000,000-row file whose calls covered 30,000 customers'
 * months allocated 105,000 of them in six rounds, 6.8 s of a 93 s Postgres import; with
 * 100,000, one round of 30,000 at the end, 2.7 s (bench/rating.ts; RESULTS).
 */
const TOUCHED_AT_MOST = 100_000

/**
 * The call row for a record, rated (or kept unbilled with the reason); one object shape for every row.
 * `read` is the record as the file gave it, before the destination table gave it a band or class:
 * its key (contract 9.6) is of what was sent, whatever the table says today.
 */
export function toNewCall(record: UsageRecord, context: BatchContext, digest: Digest, usageFileID: string | null, now: Stamp, callMark: number, read: UsageRecord = record): NewCall {
  const rated = rateRecord(record, context, context.allowance)
  const ok = isRated(rated)
  const ignored = 'ignoredReason' in rated
  return {
    usageFileID,
    customerID: rated.customerID,
    numberID: rated.numberID,
    tariffID: ok ? rated.tariffID : null,
    pricingFeatureID: ok ? rated.pricingFeatureID : null,
    callingNumber: record.callingNumber,
    dialledNumber: record.dialledNumber,
    startTime: record.startTime,
    durationSeconds: record.durationSeconds,
    bytes: record.bytes,
    events: record.events,
    callType: record.callClass,
    // As rated: a CDR number's band and origination (`CdrTerms`) price it again when allowances move.
    chargeBand: ok ? rated.chargeBand : record.chargeBand,
    carrier: record.carrier,
    cost: ok ? rated.cost : null,
    carrierCost: record.wholesaleCost,
    ratedDuration: ok ? rated.ratedDuration : null,
    timeBand: ok ? rated.timeBand : null,
    allowanceSeconds: ok ? rated.allowanceSeconds : null,
    origination: ok ? rated.origination : record.origination,
    recorded: record.recorded,
    rated: ok,
    unbilledReason: ok || ignored ? null : rated.unbilledReason,
    ignoredReason: ignored ? rated.ignoredReason : null,
    deleted: false,
    callMark,
    fingerprint: digest.sha256(usageFingerprint(read)),
    keyedByID: read.externalID !== null,
    createdStamp: now,
    updatedStamp: now,
  }
}

/**
 * A batch looked up: its records as read and as rated (the destination table's band and class
 * given, in the same order), their numbers' lookup, and the positions of records an import
 * stored before under an older key (`older-keys.ts`).
 */
interface LookedUpBatch {
  readonly read: readonly UsageRecord[]
  readonly batch: readonly UsageRecord[]
  readonly context: BatchContext
  readonly stored: ReadonlySet<number> | null
}

export interface ImportOptions {
  /** Customers' months whose allowances wait for their calls to be in before they are allocated mid-import (`TOUCHED_AT_MOST`). */
  readonly allocateAt?: number
  /** Read through a carrier format (contract 17.3), whose starts were cut to the second before migration 0087 (`speltCarrierKeys`). */
  readonly throughFormat?: boolean
}

/**
 * Imports a usage file, its CSV records in the batches the CSV adapter parses them in, in one
 * transaction: a bad row rejects the whole file (naming its line); records imported before (by
 * any file) are skipped, so re-sending a file or a record creates nothing twice. Memory holds
 * one batch of rows, not the file.
 */
export async function importUsageFile(ctx: PlatformContext, lines: AsyncIterable<readonly UsageLine[]>, name: string | null, options: ImportOptions = {}): Promise<Item> {
  // The name is stored as the file's `name` field: checked like any field (length, NUL).
  const files = ctx.resources.get('usageFiles')!
  if (name !== null) ctx.validator.parseField(files, files.byName.get('name')!, name)
  const { allocateAt = TOUCHED_AT_MOST, throughFormat = false } = options
  return ctx.store.bulkTransaction((store) => store.rating.importing(() => importInto(ctx, store, lines, name, allocateAt, throughFormat)))
}

/** The import's work inside its transaction. */
async function importInto(ctx: PlatformContext, store: Store, lines: AsyncIterable<readonly UsageLine[]>, name: string | null, allocateAt: number, throughFormat: boolean): Promise<Item> {
  // Lookups read what the import does not write (numbers, customers, features, tariffs): where the
  // database allows, on another connection, so the next batch is looked up while this one is written.
  const beside = ctx.store.rating.readsBesideWrites
  const reads = beside ? ctx.store.rating : store.rating
  const shared = await loadRatingShared(reads, ctx.presets.discountPlans)
  // A customer's own limits come with its numbers' lookup (`creditWatched`); numbers' limits are
  // asked of a batch's other customers only when some number has one.
  const numberLimits = await store.creditControl.anyNumberCreditLimits()
  // The last call that may hold a key of its carrier as spelt (migration 0087): null, and nothing looked for, on an install begun since.
  const speltThrough = await reads.speltKeysThrough()
  // Calls are a month's spend: expected spends are measured with the limits (contract 17.7).
  const ratio = ctx.presets.expectedSpendAlertRatio
  // Taken first, and held to the commit: a run marked after it waits for these calls (call-marks.ts).
  const callMark = await store.callMarks.current()
  const now = ctx.clock.now()
  const file = await store.repository('usageFiles').insert({ name, createdStamp: now, updatedStamp: now })
  const reader = new UsageFileReader()
  let records: UsageRecord[] = []
  let rows = 0
  let imported = 0
  let rated = 0
  let ignored = 0
  const touched = new TouchedMonths()
  // The earliest start of the file's rated calls: where the next run's read of calls must start (CallMarks.noteSince).
  let earliest: string | null = null
  // The first and last start of all its calls: where its stored calls are counted (`callCountsOf`).
  let first: Stamp | null = null
  let last: Stamp | null = null
  // One batch is written while the next is read and rated: on Postgres the database and this
  // process then work at the same time, on a SQLite file its writes thread (`bulkTransaction`).
  // A batch's insert is sent before the one before it is answered (WRITES_AHEAD), so the writer
  // goes from one to the next without waiting for this process; the inserts keep their order.
  const writes: Promise<void>[] = []
  let failure: { error: unknown } | null = null
  const written = async () => {
    await Promise.all(writes)
    writes.length = 0
    if (failure) throw failure.error
  }
  const room = async () => {
    while (writes.length >= WRITES_AHEAD) await writes.shift()
    if (failure) throw failure.error
  }
  // A batch's numbers, customers and allowances are looked up for its records alone. Beside the
  // writes (Postgres's pool, a SQLite file's reads thread), while the next batches' records are
  // read: the batch is rated and written once LOOKAHEAD more are read (or the file ends). An
  // in-memory SQLite database has one connection, and nothing to overlap.
  const looking: Promise<LookedUpBatch>[] = []
  // Destination tables, loaded at the first record that lacks its band or class (contract 17.2):
  // a file that gives them all never reads them.
  let destinations: (DestinationLookup & { readonly classes: readonly CallClass[] }) | null = null
  // The last call that may hold a key of its looked-up band and class, read with the tables.
  let oldKeysThrough: string | null = null
  let beforeLookup = false
  const flush = async () => {
    const read = records
    let batch = records
    records = []
    const looked = batch.some((r) => r.lookUpDestination)
    let lookUps = looked
    if (lookUps && !destinations) {
      const loaded = await destinationTablesOf(ctx.store, reads)
      oldKeysThrough = await reads.oldKeysThrough()
      // With `national`: a record's table is named by its number's national tariff, else its
      // customer's (`resolveDestinations`), read with that class's columns, whatever class the
      // records give or the tables hold.
      const classes = [...new Set<CallClass>([...(loaded.classes as CallClass[]), 'national'])]
      destinations = { ...loaded, classes, countryCallingCode: ctx.presets.countryCallingCode }
      beforeLookup = onlyDefault(destinations)
    }
    if (lookUps && beforeLookup) {
      batch = resolveInDefault(batch, destinations!)
      lookUps = false
    }
    const ready = lookUp(read, batch, loadBatchContext(reads, shared, batch, lookUps ? destinations!.classes : []), looked)
    if (!beside) return rateAndWrite(await ready)
    // Its failure is thrown where it is awaited; a rejection nobody awaits yet would end the process.
    ready.catch(() => undefined)
    looking.push(ready)
    if (looking.length > LOOKAHEAD) await rateOldest()
  }
  // Once its numbers are known, a batch's records take what the destination table gives them,
  // and those stored before under that key are asked for: in the lookahead, on the lookups' connection.
  const lookUp = async (read: readonly UsageRecord[], batch: readonly UsageRecord[], loading: Promise<BatchContext>, looked: boolean): Promise<LookedUpBatch> => {
    const [context, spelt] = await Promise.all([loading, storedUnderOlderKeys(reads, speltThrough, () => speltCarrierKeys(ctx.digest, read, throughFormat))])
    const resolved = looked && destinations && !beforeLookup ? resolveDestinations(batch, context, destinations) : batch
    const lookedUp = looked ? await storedUnderOlderKeys(reads, oldKeysThrough, () => lookedUpKeys(ctx.digest, read, resolved)) : null
    const stored = lookedUp && spelt ? new Set([...lookedUp, ...spelt]) : (lookedUp ?? spelt)
    return { read, batch: resolved, context, stored }
  }
  const rateOldest = async () => {
    const oldest = looking.shift()!
    await rateAndWrite(await oldest)
  }
  const flushed = async () => {
    while (looking.length > 0) await rateOldest()
  }
  const lookupSettled = () => Promise.all(looking.map((l) => l.catch(() => undefined)))
  const rateAndWrite = async ({ read, batch, context, stored }: LookedUpBatch) => {
    // The customers whose credit alerts these calls can change (`creditCandidates`): with no
    // number holding a limit, only those the lookup found watched, most often none.
    const customers = new Set<string>()
    const watched = context.creditWatched
    // A loop, not a closure over `context`: the insert's callback below would keep the batch's
    // whole lookup alive with it, through the next batches' inserts, where each scavenge copies it.
    const calls: NewCall[] = []
    for (let i = 0; i < batch.length; i++) {
      // Stored before under an older key: a duplicate, counted as one (rows - imported).
      if (stored?.has(i)) continue
      const call = toNewCall(batch[i], context, ctx.digest, file.id, now, callMark, read[i])
      if (first === null || call.startTime < first) first = call.startTime
      if (last === null || call.startTime > last) last = call.startTime
      if (call.rated) {
        rated++
        if (earliest === null || call.startTime < earliest) earliest = call.startTime
      } else if (call.ignoredReason !== null) ignored++
      if (call.customerID && (numberLimits || watched.has(call.customerID))) customers.add(call.customerID)
      if (call.allowanceSeconds !== null) touched.add(call.customerID!, call.startTime)
      calls.push(call)
    }
    await room()
    // The failure is kept at once (a rejection nobody awaits yet would end the process) and thrown at the next flush.
    // Rated calls are unbilled call charges: they can raise credit alerts (contract 10.6). A batch's
    // customers are measured once its calls are in (and perhaps the next batch's), so the last
    // batch with a customer's calls measures all of them, and no set of every customer of the
    // file is kept.
    writes.push(
      store.rating
        .insertCalls(calls)
        .then(async (n) => {
          imported += n
          await refreshCreditAlerts(store, await creditCandidates([...customers], watched), now, { candidates: true, expectedSpendAlertRatio: ratio, act: ctx })
        })
        .then(undefined, (error: unknown) => void (failure ??= { error })),
    )
    // Allocated once its calls are in; a month touched again later is allocated again then. So
    // the months waiting stay few whatever the file's size.
    if (touched.customers >= allocateAt) {
      await written()
      await reallocate()
    }
  }
  // Customers with a limit of their own or an alert stored, and when some number has a limit,
  // those of the others with such a number: the customers whose alerts the calls can change.
  const creditCandidates = async (customers: readonly string[], watched: ReadonlySet<string>) => {
    const others = customers.filter((id) => !watched.has(id))
    const byNumber = new Set(numberLimits && others.length ? await store.creditControl.withNumberCreditLimits(others) : [])
    return customers.filter((id) => watched.has(id) || byNumber.has(id))
  }
  const reallocate = async () => {
    const months = touched.take()
    // Re-priced calls change unbilled charges: their customers are measured again.
    await reallocateAllowances(store.rating, shared, months, now, (changed) => refreshCreditAlerts(store, changed, now, { expectedSpendAlertRatio: ratio, act: ctx }))
  }
  try {
    for await (const batch of lines) {
      for (const line of batch) {
        const record = reader.read(line)
        if (!record) continue
        rows++
        records.push(record)
        if (records.length >= IMPORT_BATCH) await flush()
        else if (beside && rows % TURN_EVERY === 0) await turn()
      }
    }
    reader.finish()
    if (records.length > 0) await flush()
    await flushed()
    await written()
  } catch (error) {
    // The transaction rolls back after the writes and the lookups under way, never beside them.
    await Promise.all(writes)
    await lookupSettled()
    throw error
  }
  // Allowances are used in start order over each month's calls, those stored before included.
  if (touched.customers > 0) await reallocate()
  if (earliest !== null) await store.callMarks.noteSince(callMark, earliest)
  // The counts are of the calls this file stored: a record imported before is a duplicate, not
  // a rated call (a file sent twice reports imported 0, rated 0, duplicates = rows).
  const stored = imported === rows || first === null || last === null ? { rated, ignored } : await store.rating.callCountsOf(file.id, { from: first, to: last })
  const done = (await store.repository('usageFiles').update(file.id, {
    rows,
    imported,
    duplicates: rows - imported,
    rated: stored.rated,
    unbilled: imported - stored.rated - stored.ignored,
    ignored: stored.ignored,
  }))!
  // One event for the file, in the import's transaction (contract 12), not one per call.
  await appendEvents(store, ctx.clock, 'usage_file.imported', store.repository('usageFiles').resource, [done])
  return done
}
