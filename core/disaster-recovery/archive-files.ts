import { addDays, type DateOnly } from '../dates/date-only.js'
import { BillingError } from '../errors.js'
import type { DisasterRecoveryFile } from '../fields/entity.js'
import type { ArchiveContent, DisasterRecoveryArchiver } from '../ports/disaster-recovery-archiver.js'
import type { Clock } from '../ports/clock.js'
import type { Random } from '../ports/random.js'
import type { Condition } from '../ports/resource-repository.js'
import type { Store } from '../ports/store.js'

/** Days an archive stays available when the platform configures nothing else (contract 8). */
export const DEFAULT_RETENTION_DAYS = 7

/** The archive storage and its retention, as a composition root configures them. */
export interface DisasterRecovery {
  readonly archiver: DisasterRecoveryArchiver
  /** Days from generation until an archive expires. */
  readonly retentionDays: number
}

/** What the disaster-recovery use cases need; the platform context provides it. */
export interface DisasterRecoveryContext {
  readonly store: Store
  readonly clock: Clock
  readonly random: Random
  readonly disasterRecovery?: DisasterRecovery
}

/**
 * An archive is available until its expiry date: on `expiresDate` itself it has expired
 * (`retentionDays` days of availability, generation day included).
 */
export const isExpired = (item: Pick<DisasterRecoveryFile, 'removedStamp' | 'expiresDate'>, today: DateOnly): boolean =>
  item.removedStamp !== null || item.expiresDate === null || item.expiresDate <= today

/** Storage conditions selecting the archives still available today. */
export function unexpiredWhere(today: DateOnly): Condition[] {
  return [
    { op: 'gte', column: 'expiresDate', value: addDays(today, 1) },
    { op: 'isNull', column: 'removedStamp', value: true },
  ]
}

export function drFileNotFound(id: string): BillingError {
  return new BillingError(
    'dr_file_not_found',
    `Disaster recovery file ${id} does not exist or has expired`,
    'Use the ID of a file still available.',
    { listOf: 'disasterRecoveryFiles' },
  )
}

/** An available archive's metadata; unknown or expired → `dr_file_not_found`. */
export async function getArchive(ctx: DisasterRecoveryContext, id: string): Promise<DisasterRecoveryFile> {
  const item = await ctx.store.repository('disasterRecoveryFiles').get(id)
  if (!item || isExpired(item, ctx.clock.today())) throw drFileNotFound(id)
  return item
}

/**
 * An available archive's bytes. A file gone from storage cannot be served (404102, as if expired),
 * but it is not normal: the archive's status gains `Missing` so that its metadata says so, and the
 * composition root logs the archiver's miss as an error.
 */
export async function openArchive(ctx: DisasterRecoveryContext, item: DisasterRecoveryFile): Promise<ArchiveContent> {
  const content = item.filename ? await ctx.disasterRecovery?.archiver.open(item.filename) : undefined
  if (content) return content
  await markMissing(ctx, item)
  throw new BillingError(
    'dr_file_not_found',
    `Disaster recovery file ${item.id} is listed but its archive is missing from storage`,
    'Use another file; the operator must restore the archive directory (BILLING_DR_DIR) or wait for the next archive.',
    { listOf: 'disasterRecoveryFiles' },
  )
}

/**
 * The available archives whose file storage lacks, each marked `Missing` (a start-up check, so
 * a lost or unmounted archive directory is noticed before anyone asks for a file).
 */
export async function findMissingArchives(ctx: DisasterRecoveryContext): Promise<DisasterRecoveryFile[]> {
  const archiver = ctx.disasterRecovery?.archiver
  if (!archiver) return []
  const available = await ctx.store.repository('disasterRecoveryFiles').list({ where: unexpiredWhere(ctx.clock.today()), limit: 1000 })
  const missing: DisasterRecoveryFile[] = []
  for (const item of available) if (!(await isStored(ctx, item))) missing.push(item)
  return missing
}

/** Whether storage has an archive's file; one it lacks is marked `Missing` (the archiver logs the miss). */
export async function isStored(ctx: DisasterRecoveryContext, item: DisasterRecoveryFile): Promise<boolean> {
  const content = item.filename ? await ctx.disasterRecovery?.archiver.open(item.filename) : undefined
  if (content) {
    await content.stream.cancel()
    return true
  }
  await markMissing(ctx, item)
  return false
}

async function markMissing(ctx: DisasterRecoveryContext, item: DisasterRecoveryFile): Promise<void> {
  if (item.status?.includes('Missing')) return
  await ctx.store.repository('disasterRecoveryFiles').update(item.id, {
    status: [...(item.status ?? []), 'Missing'],
    updatedStamp: ctx.clock.now(),
  })
}
