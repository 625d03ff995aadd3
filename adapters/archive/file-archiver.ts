import { createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { once } from 'node:events'
import { hostname } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { Readable } from 'node:stream'
import type { ArchiveContent, DisasterRecoveryArchiver, LeftoverScope } from '../../core/ports/disaster-recovery-archiver.js'
import type { Database } from '../persistence/connect.js'
import { exportSnapshot, type SnapshotTable } from '../persistence/snapshot/export-snapshot.js'
import { csvRecord } from './csv.js'
import { listArchive, packEncrypted } from './seven-zip.js'

export interface FileArchiverOptions {
  /** Where archives are written (BILLING_DR_DIR). */
  readonly dir: string
  /** The platform-wide archive password (BILLING_DR_PASSWORD); null disables writing. */
  readonly password: string | null
  /** Rows per query of the snapshot export. */
  readonly batchSize?: number
}

/**
 * Private work directories (mode 0700) of the plain CSV copies: `<dir>/.work-<host>.<pid>-XXXXXX`,
 * named for their process so that a start-up can tell a dead process's from a live one's.
 */
const WORK_PREFIX = '.work-'
const OWNED = /^\.work-(.+)\.(\d+)-[^-]+$/
const HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_')
const PARTIAL_SUFFIX = '.partial'

/**
 * Disaster-recovery archives as files in one directory: the snapshot is streamed table by
 * table into CSV files in a private work directory, 7za packs them into an encrypted archive
 * under a temporary name, which is renamed once complete and synced. The plain CSV files are
 * deleted whatever happens: by `write` itself, by 7za's guard if this process dies while 7za
 * packs them, or else by `removeLeftovers` when the next process starts its archive job.
 */
export class FileArchiver implements DisasterRecoveryArchiver {
  private readonly options: FileArchiverOptions

  constructor(
    private readonly database: Database,
    options: FileArchiverOptions,
  ) {
    // Absolute, because 7za runs inside the work directory.
    this.options = { ...options, dir: resolve(options.dir) }
  }

  get canWrite(): boolean {
    return !!this.options.password
  }

  async write(filename: string): Promise<{ size: number }> {
    const password = this.options.password
    if (!password) throw new Error('no archive password is configured')
    const target = this.path(filename)
    const dir = this.options.dir
    await mkdir(dir, { recursive: true, mode: 0o700 })
    const work = await mkdtemp(join(dir, `${WORK_PREFIX}${HOST}.${process.pid}-`)) // mode 0700: the CSV files are plain text
    const partial = join(dir, `.${filename}${PARTIAL_SUFFIX}`)
    try {
      const files: string[] = []
      await exportSnapshot(
        this.database,
        async (table) => {
          files.push(await writeCsv(work, table))
        },
        this.options.batchSize,
      )
      await packEncrypted(partial, work, files, password)
      await assertHeadersEncrypted(partial)
      await syncFile(partial)
      await rename(partial, target)
      return { size: (await stat(target)).size }
    } finally {
      await rm(work, { recursive: true, force: true })
      await rm(partial, { force: true })
    }
  }

  async open(filename: string): Promise<ArchiveContent | undefined> {
    const path = this.path(filename)
    const handle = await open(path, 'r').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined
      throw e
    })
    if (!handle) return undefined
    const { size } = await handle.stat()
    // The handle closes itself when the stream ends or is cancelled (a client gone mid-download).
    const stream = Readable.toWeb(handle.createReadStream()) as unknown as ReadableStream<Uint8Array>
    return { size, stream }
  }

  async remove(filename: string): Promise<void> {
    await rm(this.path(filename), { force: true })
  }

  /** A plain name inside the archive directory; anything with a directory part is refused. */
  private path(filename: string): string {
    if (!filename || basename(filename) !== filename || filename.startsWith('.')) throw new Error(`not an archive name: ${filename}`)
    return join(this.options.dir, filename)
  }

  /**
   * Removes work directories (plain CSV copies) and partial archives that killed processes
   * left: `all` of them under the archive job's lease (the job does, first thing), or those
   * of this machine's processes that are gone (at start-up; partial archives are encrypted
   * and wait for the job).
   */
  async removeLeftovers(scope: LeftoverScope): Promise<number> {
    const dir = this.options.dir
    const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return [] as string[]
      throw e
    })
    const leftovers = names.filter((name) =>
      scope === 'all' ? name.startsWith(WORK_PREFIX) || name.endsWith(PARTIAL_SUFFIX) : deadOwner(name),
    )
    for (const name of leftovers) await rm(join(dir, name), { recursive: true, force: true })
    return leftovers.length
  }
}

/** A work directory of a process of this machine that is gone (or whose PID is now ours: a restart). */
function deadOwner(name: string): boolean {
  const owner = OWNED.exec(name)
  if (!owner || owner[1] !== HOST) return false
  const pid = Number(owner[2])
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/** Streams one table into `<table>.csv` with a header row, honouring backpressure. */
async function writeCsv(dir: string, table: SnapshotTable): Promise<string> {
  const name = `${table.table}.csv`
  const out = createWriteStream(join(dir, name), { mode: 0o600 })
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  try {
    await write(csvRecord(table.columns))
    for await (const batch of table.batches) await write(batch.map(csvRecord).join(''))
  } finally {
    out.end()
    await once(out, 'close')
  }
  return name
}

/** Proof that the archive's file list is encrypted: listing it without the password must fail. */
async function assertHeadersEncrypted(archive: string): Promise<void> {
  const listed = await listArchive(archive, null).then(
    () => true,
    () => false,
  )
  if (listed) throw new Error('7za wrote an archive whose file list is readable without the password')
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
