import { Worker } from 'node:worker_threads'
import { createRequire } from 'node:module'
import type { Database } from 'better-sqlite3'

/**
 * How often the thread checkpoints. A checkpoint copies a page once however often it was
 * committed since the last, so a longer wait copies less: over a 1,000,000-feature billing run,
 * 6.5 s of the thread's time at 100 ms, 5.7 s at 300 ms, 4.3 s at 1 s (bench/RESULTS.md).
 */
export const CHECKPOINT_EVERY_MS = 500

/**
 * The committing connection's own threshold (pages in the log) while the thread checkpoints:
 * reached only if the thread falls behind. SQLite's default is 1,000 pages.
 */
export const FALLBACK_AUTOCHECKPOINT = 10_000
const SQLITE_AUTOCHECKPOINT = 1_000

/**
 * The thread's program: a connection of its own that copies the committed pages of the log into
 * the file every `everyMs`. A passive checkpoint waits for no reader or writer; one that another
 * connection's checkpoint holds off answers busy, and the next tick tries again. As the
 * committing connection, it syncs the log before copying it and the file after. Plain
 * JavaScript, so that it runs as it is from source too: a TypeScript program made the thread
 * load tsx first, half a second of CPU for each connection the tests open.
 */
const PROGRAM = `
const { workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file, { fileMustExist: true })
db.pragma('synchronous = NORMAL')
setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.everyMs)
`
const driver = createRequire(import.meta.url).resolve('better-sqlite3')

export interface WalCheckpoints {
  stop(): Promise<void>
}

/**
 * How long a connection runs on SQLite's own checkpoints before the thread starts. A thread
 * costs about 0.1 s of CPU to start (Node's bootstrap, the driver loaded again); a connection
 * closed sooner (a CLI, a short script, most of the tests' databases) never needed it, and in
 * its first second the log seldom reaches SQLite's 1,000 pages.
 */
export const START_AFTER_MS = 1_000

/**
 * Checkpoints a SQLite file's write-ahead log on a thread of its own, in place of the connection
 * that commits. SQLite checkpoints in the commit that takes the log past 1,000 pages, so the
 * main thread copied every page it wrote a second time, into the file, and synced it: in a
 * billing run, a sixth of its statements' time (its commits took 5.7 s, 1.6 s with the
 * thread). A thread that ends without being stopped leaves the checkpoints to the commits again.
 */
export function walCheckpoints(sqlite: Database, file: string, everyMs = CHECKPOINT_EVERY_MS, startAfterMs = START_AFTER_MS): WalCheckpoints {
  let worker: Worker | null = null
  let stopped = false
  const start = () => {
    worker = new Worker(PROGRAM, { eval: true, workerData: { driver, file, everyMs }, resourceLimits: { maxYoungGenerationSizeMb: 1 } })
    worker.unref()
    sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT}`)
    const ended = () => {
      if (!stopped && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT}`)
    }
    worker.on('error', ended)
    worker.on('exit', ended)
  }
  const timer = startAfterMs > 0 ? setTimeout(() => sqlite.open && start(), startAfterMs).unref() : (start(), null)
  return {
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await worker?.terminate()
    },
  }
}
