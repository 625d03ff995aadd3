import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

/** One finished HTTP request, as the request middleware reports it. */
export interface RequestSample {
  readonly method: string
  /** The route's pattern, or null when no route matched (counted as `unmatched`, never by raw path). */
  readonly route: string | null
  readonly status: number
  readonly durationMs: number
}

/** One finished job run, as the scheduler reports it. */
export interface JobSample {
  readonly job: string
  readonly outcome: string
  readonly durationMs: number
}

/** A running billing run's progress, read from the database at each scrape. */
export interface RunProgressSample {
  readonly runID: string
  readonly customersTotal: number | null
  readonly customersDone: number | null
  readonly invoiceCount: number | null
  /** Seconds since the epoch, or null while unknown. */
  readonly estimatedCompletion: number | null
}

export interface PrometheusMetricsOptions {
  /** The billing runs in progress (any process's: it is read where the runs are stored). */
  readonly runningBillingRuns?: () => Promise<readonly RunProgressSample[]>
  /** Node's own process metrics (CPU, memory, event loop lag, GC); on by default. */
  readonly processMetrics?: boolean
}

const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
const JOB_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600]

/**
 * The platform's metrics in a registry of its own (several platforms may share a process: an
 * embedding application's, tests). Requests and jobs are counted as they end; billing-run
 * progress is read from the database when scraped (`text()`), so a server reports the runs
 * its workers execute.
 */
export class PrometheusMetrics {
  readonly registry = new Registry()
  private readonly requests: Counter<'method' | 'route' | 'status'>
  private readonly requestSeconds: Histogram<'method' | 'route' | 'status'>
  private readonly jobRuns: Counter<'job' | 'outcome'>
  private readonly jobSeconds: Histogram<'job' | 'outcome'>
  private backlogSource: (() => Promise<number> | number) | null = null
  private readonly runGauges: Record<'total' | 'done' | 'invoices' | 'completion', Gauge<'run_id'>>
  private readonly runningBillingRuns: PrometheusMetricsOptions['runningBillingRuns']

  constructor(options: PrometheusMetricsOptions = {}) {
    const registers = [this.registry]
    this.requests = new Counter({ name: 'billing_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers })
    this.requestSeconds = new Histogram({
      name: 'billing_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    })
    this.jobRuns = new Counter({ name: 'billing_job_runs_total', help: 'Scheduled job runs, by job and outcome (done, failed, skipped)', labelNames: ['job', 'outcome'], registers })
    this.jobSeconds = new Histogram({ name: 'billing_job_duration_seconds', help: 'Duration of scheduled job runs, by job and outcome', labelNames: ['job', 'outcome'], buckets: JOB_BUCKETS, registers })
    const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames: ['run_id'], registers })
    this.runGauges = {
      total: gauge('billing_run_customers_total', 'Customers a running billing run covers'),
      done: gauge('billing_run_customers_done', 'Customers a running billing run has billed so far'),
      invoices: gauge('billing_run_invoices', 'Invoices a running billing run has raised so far'),
      completion: gauge('billing_run_estimated_completion_timestamp_seconds', 'When a running billing run is expected to complete (Unix time)'),
    }
    this.runningBillingRuns = options.runningBillingRuns
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry })
  }

  observeRequest(sample: RequestSample): void {
    const labels = { method: sample.method, route: sample.route ?? 'unmatched', status: String(sample.status) }
    this.requests.inc(labels)
    this.requestSeconds.observe(labels, sample.durationMs / 1000)
  }

  observeJob(sample: JobSample): void {
    const labels = { job: sample.job, outcome: sample.outcome }
    this.jobRuns.inc(labels)
    this.jobSeconds.observe(labels, sample.durationMs / 1000)
  }

  /**
   * Feeds `billing_event_delivery_backlog` (events not yet delivered to every webhook that
   * wants them), read at each scrape. The gauge appears once a source is given.
   */
  eventBacklog(source: () => Promise<number> | number): void {
    const first = this.backlogSource === null
    this.backlogSource = source
    if (!first) return
    const metrics = this
    new Gauge({
      name: 'billing_event_delivery_backlog',
      help: 'Events not yet delivered to every webhook that subscribes to them',
      registers: [this.registry],
      async collect() {
        this.set(await metrics.backlogSource!())
      },
    })
  }

  get contentType(): string {
    return this.registry.contentType
  }

  /** The exposition text (Prometheus text format 0.0.4), with the billing runs' progress read now. */
  async text(): Promise<string> {
    if (this.runningBillingRuns) await this.readRunProgress(this.runningBillingRuns)
    return this.registry.metrics()
  }

  /** One read sets the four progress gauges; a run no longer running drops out. */
  private async readRunProgress(running: () => Promise<readonly RunProgressSample[]>): Promise<void> {
    const runs = await running()
    const { total, done, invoices, completion } = this.runGauges
    for (const g of [total, done, invoices, completion]) g.reset()
    for (const r of runs) {
      const labels = { run_id: r.runID }
      if (r.customersTotal !== null) total.set(labels, r.customersTotal)
      if (r.customersDone !== null) done.set(labels, r.customersDone)
      if (r.invoiceCount !== null) invoices.set(labels, r.invoiceCount)
      if (r.estimatedCompletion !== null) completion.set(labels, r.estimatedCompletion)
    }
  }
}

