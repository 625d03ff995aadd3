import { createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { once } from 'node:events'
import { basename, join, resolve } from 'node:path'
import { Readable } from 'node:stream'
import type { ArchiveContent, DisasterRecoveryArchiver } from '../../core/ports/disaster-recovery-archiver.js'
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

/** Work directories and partial archives older than this are left over from a crash. */
const LEFTOVER_MS = 6 * 60 * 60 * 1000
const WORK_PREFIX = '.work-'
const PARTIAL_SUFFIX = '.partial'

/**
 * Disaster-recovery archives as files in one directory: the snapshot is streamed table by
 * table into CSV files in a private work directory, 7za packs them into an encrypted archive
 * under a temporary name, which is renamed once complete and synced. The plain CSV files are
 * deleted whatever happens.
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
    await this.removeLeftovers()
    const work = await mkdtemp(join(dir, WORK_PREFIX)) // mode 0700: the CSV files are plain text
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

  /** Plain CSV files and partial archives a crashed run left behind. */
  private async removeLeftovers(): Promise<void> {
    const dir = this.options.dir
    for (const name of await readdir(dir)) {
      if (!name.startsWith(WORK_PREFIX) && !name.endsWith(PARTIAL_SUFFIX)) continue
      const info = await stat(join(dir, name)).catch(() => null)
      if (info && Date.now() - info.mtimeMs > LEFTOVER_MS) await rm(join(dir, name), { recursive: true, force: true })
    }
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
