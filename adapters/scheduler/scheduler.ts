import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { Cron } from 'croner'
import type { JobLeases } from '../../core/ports/job-leases.js'
import type { JobDefinition, JobResult } from './job.js'

export interface JobLogEntry {
  readonly job: string
  /** The run's own lease holder (`<host>:<pid>:<scheduler>#<run>`). */
  readonly holder: string
  /** `skipped`: the lease was held, here or elsewhere. `done` without a result: it found nothing to do. */
  readonly outcome: 'done' | 'failed' | 'skipped'
  readonly durationMs: number
  readonly result?: JobResult
  /** The failure's message. */
  readonly error?: string
  /** What the job threw, for the log's stack trace. */
  readonly failure?: unknown
}

export interface SchedulerOptions {
  readonly jobs: readonly JobDefinition[]
  readonly leases: JobLeases
  /** How long a lease lasts without renewal; a killed holder's work resumes after this. */
  readonly leaseMs?: number
  readonly onJobEnd?: (entry: JobLogEntry) => void
}

/**
 * The croner options of every job. Patterns are read in UTC, whatever the process's `TZ`: the
 * Clock's `today()` is the UTC date, so a daily job at 00:30 runs on the day it dates its work.
 */
export const cronOptions = { protect: true, catch: true, timezone: 'UTC' } as const

/**
 * Runs jobs on their croner schedules, in UTC (`cronOptions`). A job runs at most once at a time
 * across every process sharing the database, including in this one: a run whose lease is already
 * taken by a run of this scheduler is skipped without asking the database, and each run takes the
 * lease under a holder of its own, so no other run can take it again, renew it or release it. The
 * lease is renewed while the run lasts and released when it ends. `stop()` waits for running jobs.
 */
export class Scheduler {
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  private readonly crons: Cron[] = []
  private readonly running = new Set<Promise<void>>()
  /** Leases taken (or being taken) by a run of this scheduler. */
  private readonly leasesHere = new Set<string>()
  private readonly stopping = new AbortController()
  private readonly leaseMs: number
  private runs = 0

  constructor(private readonly options: SchedulerOptions) {
    this.leaseMs = options.leaseMs ?? 60_000
  }

  start(): void {
    for (const job of this.options.jobs) {
      this.crons.push(new Cron(job.schedule, cronOptions, () => this.runNow(job.name)))
      if (job.runAtStart) void this.runNow(job.name)
    }
  }

  /** Runs a job now (if its lease can be had); resolves when that run ends. */
  runNow(name: string): Promise<void> {
    const job = this.options.jobs.find((j) => j.name === name)
    if (!job) return Promise.reject(new Error(`no job ${name}`))
    if (this.stopping.signal.aborted) return Promise.resolve()
    const run = this.execute(job).finally(() => this.running.delete(run))
    this.running.add(run)
    return run
  }

  private async execute(job: JobDefinition): Promise<void> {
    const started = performance.now()
    const lease = job.lease ?? job.name
    const holder = `${this.holder}#${++this.runs}`
    const end = (entry: Omit<JobLogEntry, 'job' | 'holder' | 'durationMs'>) =>
      this.options.onJobEnd?.({ job: job.name, holder, durationMs: Math.round(performance.now() - started), ...entry })
    // Claimed before the first await, so a run started meanwhile sees it.
    if (this.leasesHere.has(lease)) return end({ outcome: 'skipped' })
    this.leasesHere.add(lease)
    try {
      const { leases } = this.options
      let acquired: boolean
      try {
        acquired = await leases.acquire(lease, holder, this.leaseMs)
      } catch (error) {
        return end({ outcome: 'failed', error: (error as Error).message, failure: error })
      }
      if (!acquired) return end({ outcome: 'skipped' })
      try {
        const result = await this.runHoldingLease(job, lease, holder)
        end({ outcome: 'done', ...(result ? { result } : {}) })
      } catch (error) {
        end({ outcome: 'failed', error: (error as Error).message, failure: error })
      } finally {
        await leases.release(lease, holder).catch(() => {})
      }
    } finally {
      this.leasesHere.delete(lease)
    }
  }

  /** The job's work, its lease renewed meanwhile; a lost lease or `stop()` aborts its signal. */
  private async runHoldingLease(job: JobDefinition, lease: string, holder: string) {
    const abort = new AbortController()
    const onStop = () => abort.abort()
    this.stopping.signal.addEventListener('abort', onStop)
    const heartbeat = setInterval(() => {
      this.options.leases.renew(lease, holder, this.leaseMs).then(
        (kept) => kept || abort.abort(),
        () => abort.abort(),
      )
    }, Math.max(1000, Math.floor(this.leaseMs / 3)))
    try {
      return await job.run(abort.signal)
    } finally {
      clearInterval(heartbeat)
      this.stopping.signal.removeEventListener('abort', onStop)
    }
  }

  /**
   * Stops scheduling and lets running jobs finish; past `graceMs` they are asked to stop
   * between batches (their work resumes on the next run) and are waited for.
   */
  async stop(graceMs = 30_000): Promise<void> {
    for (const c of this.crons) c.stop()
    const all = Promise.allSettled([...this.running])
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs)
    })
    const outcome = await Promise.race([all.then(() => 'done' as const), late])
    clearTimeout(timer)
    this.stopping.abort()
    if (outcome === 'late') await all
    await Promise.allSettled(this.options.jobs.map((job) => job.stop?.()))
  }
}
