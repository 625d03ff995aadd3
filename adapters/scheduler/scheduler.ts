import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { Cron } from 'croner'
import type { JobLeases } from '../../core/ports/job-leases.js'
import type { JobDefinition, JobResult } from './job.js'

export interface JobLogEntry {
  readonly job: string
  readonly holder: string
  readonly outcome: 'done' | 'failed' | 'skipped'
  readonly durationMs: number
  readonly result?: JobResult
  readonly error?: string
}

export interface SchedulerOptions {
  readonly jobs: readonly JobDefinition[]
  readonly leases: JobLeases
  /** How long a lease lasts without renewal; a killed holder's work resumes after this. */
  readonly leaseMs?: number
  readonly onJobEnd?: (entry: JobLogEntry) => void
}

/**
 * Runs jobs on their croner schedules. Each run first takes the job's lease, so across every
 * process sharing the database a job never runs twice at once; the lease is renewed while the
 * job runs and released at the end. `stop()` waits for running jobs to finish.
 */
export class Scheduler {
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  private readonly crons: Cron[] = []
  private readonly running = new Set<Promise<void>>()
  private readonly stopping = new AbortController()
  private readonly leaseMs: number

  constructor(private readonly options: SchedulerOptions) {
    this.leaseMs = options.leaseMs ?? 60_000
  }

  start(): void {
    for (const job of this.options.jobs) {
      this.crons.push(new Cron(job.schedule, { protect: true, catch: true }, () => this.runNow(job.name)))
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
    const { leases, onJobEnd } = this.options
    const end = (entry: Omit<JobLogEntry, 'job' | 'holder' | 'durationMs'>) =>
      onJobEnd?.({ job: job.name, holder: this.holder, durationMs: Math.round(performance.now() - started), ...entry })
    let acquired = false
    try {
      acquired = await leases.acquire(job.lease ?? job.name, this.holder, this.leaseMs)
    } catch (error) {
      end({ outcome: 'failed', error: (error as Error).message })
      return
    }
    if (!acquired) return end({ outcome: 'skipped' })
    const abort = new AbortController()
    const onStop = () => abort.abort()
    this.stopping.signal.addEventListener('abort', onStop)
    const heartbeat = setInterval(() => {
      leases.renew(job.lease ?? job.name, this.holder, this.leaseMs).then(
        (kept) => kept || abort.abort(),
        () => abort.abort(),
      )
    }, Math.max(1000, Math.floor(this.leaseMs / 3)))
    try {
      const result = await job.run(abort.signal)
      end({ outcome: 'done', ...(result ? { result } : {}) })
    } catch (error) {
      end({ outcome: 'failed', error: (error as Error).message })
    } finally {
      clearInterval(heartbeat)
      this.stopping.signal.removeEventListener('abort', onStop)
      await leases.release(job.lease ?? job.name, this.holder).catch(() => {})
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
  }
}
