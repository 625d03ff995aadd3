import { addDays } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import type { DisasterRecoveryFile } from '../fields/entity.js'
import { isStored, unexpiredWhere, type DisasterRecovery, type DisasterRecoveryContext } from './archive-files.js'

/** Archives cannot be written: no password is configured. The caller logs it; nothing was written. */
export class ArchivesDisabled extends Error {
  override readonly name = 'ArchivesDisabled'
  constructor() {
    super('Disaster-recovery archives are disabled: no archive password is configured (set BILLING_DR_PASSWORD)')
  }
}

/** Status flags of a written archive, and of one whose file was deleted at expiry. */
export const WRITTEN_STATUS = ['Complete', 'Encrypted'] as const
export const EXPIRED_STATUS = ['Expired'] as const

function writer(ctx: DisasterRecoveryContext): DisasterRecovery {
  const dr = ctx.disasterRecovery
  if (!dr?.archiver.canWrite) throw new ArchivesDisabled()
  return dr
}

/** `billing-dr-20260115T100000Z-1a2b3c4d.7z`: sortable by time, unique by a random suffix. */
export function archiveFilename(now: Stamp, unique: string): string {
  const compact = now.slice(0, 19).replace(/[-:]/g, '')
  return `billing-dr-${compact}Z-${unique.replace(/[^0-9a-f]/gi, '').slice(0, 8)}.7z`
}

/**
 * Writes an encrypted archive of a consistent snapshot now and records it; the record is
 * made only once the file is complete. No password → `ArchivesDisabled`.
 */
export async function generateArchive(ctx: DisasterRecoveryContext): Promise<DisasterRecoveryFile> {
  const dr = writer(ctx)
  const filename = archiveFilename(ctx.clock.now(), ctx.random.uuid())
  const { size } = await dr.archiver.write(filename)
  const now = ctx.clock.now()
  const today = ctx.clock.today()
  try {
    return await ctx.store.repository('disasterRecoveryFiles').insert({
      generatedDate: today,
      expiresDate: addDays(today, dr.retentionDays),
      filename,
      status: [...WRITTEN_STATUS],
      size,
      createdStamp: now,
      updatedStamp: now,
    })
  } catch (error) {
    await dr.archiver.remove(filename)
    throw error
  }
}

/** Deletes the files of archives past their expiry date and marks them expired; returns how many. */
export async function expireArchives(ctx: DisasterRecoveryContext): Promise<number> {
  const dr = ctx.disasterRecovery
  if (!dr) return 0
  const repo = ctx.store.repository('disasterRecoveryFiles')
  const due = await repo.list({
    where: [
      { op: 'lte', column: 'expiresDate', value: ctx.clock.today() },
      { op: 'isNull', column: 'removedStamp', value: true },
    ],
    limit: 1000,
  })
  for (const item of due) {
    // The file goes first: a crash in between leaves a row that the next run finishes.
    if (item.filename) await dr.archiver.remove(item.filename)
    const now = ctx.clock.now()
    await repo.update(item.id, { status: [...EXPIRED_STATUS], removedStamp: now, updatedStamp: now })
  }
  return due.length
}

/**
 * For the scheduler's start (contract 8): expires what is due, then writes an archive at once
 * when none is available. Returns the new archive, or null when one was already available.
 * An unexpired archive whose file is lost does not count: one marked `Missing` is passed over,
 * and the others' files are looked for (a worker's start checks storage as a server's does).
 * Without a password it still expires, then refuses with `ArchivesDisabled`.
 */
export async function ensureFreshArchive(ctx: DisasterRecoveryContext): Promise<DisasterRecoveryFile | null> {
  await expireArchives(ctx)
  writer(ctx)
  const unexpired = await ctx.store.repository('disasterRecoveryFiles').list({ where: unexpiredWhere(ctx.clock.today()), limit: 1000 })
  for (const item of unexpired) if (!item.status?.includes('Missing') && (await isStored(ctx, item))) return null
  return generateArchive(ctx)
}

/** The scheduled run: expire what is due, then write a new archive (`ArchivesDisabled` without a password). */
export async function runArchiveSchedule(ctx: DisasterRecoveryContext): Promise<{ expired: number; generated: DisasterRecoveryFile }> {
  const expired = await expireArchives(ctx)
  return { expired, generated: await generateArchive(ctx) }
}
