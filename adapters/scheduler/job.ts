/** A scheduled job: a croner pattern and the work, which must be safe to re-run after a crash. */
export interface JobDefinition {
  readonly name: string
  /** The lease the job runs under (default its name): jobs sharing one never run at once. */
  readonly lease?: string
  /** Croner pattern (seconds optional), e.g. `0 3 * * *` for 03:00 daily. */
  readonly schedule: string
  /** Run once as soon as the scheduler starts, then follow the schedule. */
  readonly runAtStart?: boolean
  /** `signal` aborts when the lease is lost or the scheduler stops: stop between batches. */
  readonly run: (signal: AbortSignal) => Promise<JobResult | void>
  /**
   * Ends work that outlives a run (a webhook's delivery still waiting for its receiver): the
   * scheduler's `stop()` calls it once its runs have ended, and waits for it.
   */
  readonly stop?: () => Promise<void>
}

/** What a run reports for the job log line. */
export interface JobResult {
  readonly [key: string]: string | number | boolean | null
}
