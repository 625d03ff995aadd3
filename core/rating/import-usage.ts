import type { Item, Values } from '../fields/item.js'
import type { Stamp } from '../dates/stamp.js'
import type { Digest } from '../ports/digest.js'
import type { PlatformContext } from '../platform.js'
import { isRated, rateRecord, type RatingContext } from './rate-record.js'
import { loadRatingContext } from './rating-context.js'
import { UsageFileReader } from './usage-file-reader.js'
import { usageFingerprint } from './usage-fingerprint.js'
import type { UsageRecord } from './usage-record.js'

const BATCH = 2000

/** The call row for a record, rated (or kept unbilled with the reason). */
export function callValues(record: UsageRecord, context: RatingContext, digest: Digest, usageFileID: string | null, now: Stamp): Values {
  const rated = rateRecord(record, context)
  const base: Values = {
    usageFileID,
    callingNumber: record.callingNumber,
    dialledNumber: record.dialledNumber,
    startTime: record.startTime,
    durationSeconds: record.durationSeconds,
    bytes: record.bytes,
    events: record.events,
    callType: record.callClass,
    chargeBand: record.chargeBand,
    carrier: record.carrier,
    deleted: false,
    fingerprint: digest.sha256(usageFingerprint(record)),
    createdStamp: now,
    updatedStamp: now,
  }
  if (isRated(rated)) {
    return {
      ...base,
      customerID: rated.customerID,
      numberID: rated.numberID,
      tariffID: rated.tariffID,
      cost: rated.cost,
      ratedDuration: rated.ratedDuration,
      timeBand: rated.timeBand,
      rated: true,
      unbilledReason: null,
    }
  }
  return { ...base, customerID: rated.customerID, numberID: rated.numberID, rated: false, unbilledReason: rated.unbilledReason }
}

/**
 * Imports a usage file, one line at a time, in one transaction: a bad row rejects the whole file
 * (naming its line); records imported before (by any file) are skipped, so re-sending a file or
 * a record creates nothing twice. Memory holds one batch of rows, not the file.
 */
export async function importUsageFile(ctx: PlatformContext, lines: AsyncIterable<string>, name: string | null): Promise<Item> {
  // The name is stored as the file's `name` field: checked like any field (length, NUL).
  const files = ctx.resources.get('usageFiles')!
  if (name !== null) ctx.validator.parseField(files, files.byName.get('name')!, name)
  return ctx.store.transaction(async (store) => {
    const context = await loadRatingContext(store.rating)
    const now = ctx.clock.now()
    const file = await store.repository('usageFiles').insert({ name, createdStamp: now, updatedStamp: now })
    const reader = new UsageFileReader()
    let batch: Values[] = []
    let rows = 0
    let imported = 0
    let rated = 0
    const flush = async () => {
      imported += await store.rating.insertCalls(batch)
      batch = []
    }
    for await (const line of lines) {
      const record = reader.read(line)
      if (!record) continue
      const call = callValues(record, context, ctx.digest, file.id, now)
      if (call.rated) rated++
      rows++
      batch.push(call)
      if (batch.length >= BATCH) await flush()
    }
    reader.finish()
    await flush()
    return (await store.repository('usageFiles').update(file.id, {
      rows,
      imported,
      duplicates: rows - imported,
      rated,
      unbilled: rows - rated,
    }))!
  })
}
