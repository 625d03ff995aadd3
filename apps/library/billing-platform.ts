import type { H3 } from 'h3'
import type { ResourceName } from '../../core/fields/resource.js'
import type { ShownOf } from '../../core/fields/entity.js'
import type { Clock } from '../../core/ports/clock.js'
import type { PaymentLinkProvider } from '../../core/ports/payment-link-provider.js'
import type { PasswordHasher } from '../../core/ports/password-hasher.js'
import { presetValues } from '../../core/resources/preset-values.js'
import { defaultPresets, mergePresets, type PresetsFileInput } from '../../core/presets/presets.js'
import { checkStandardFeatures } from '../../core/features/standard-feature.js'
import type { Expanded } from '../../core/resources/expansions.js'
import type { Scheduler } from '../../adapters/scheduler/scheduler.js'
import type { AnyDb } from '../../adapters/persistence/schema/tables.js'
import { loadPresetsFile } from '../platform/config.js'
import { milliseconds, positiveInt } from '../platform/env-numbers.js'
import type { Logger } from '../platform/logger.js'
import { openPlatform, type Platform } from '../platform/platform.js'
import { apiKeysApi, type ApiKeysApi } from './api-keys-api.js'
import { eventsApi, historyApi, webhooksApi, type EventsApi, type HistoryApi, type WebhooksApi } from './events-api.js'
import { billingRunsApi, invoicesApi, transactionsApi, type BillingRunsApi, type InvoicesApi, type TransactionsApi } from './billing-api.js'
import { customerChildApi, featuresApi, type CustomerChildApi, type FeaturesApi } from './children-api.js'
import { contactsApi, type ContactsApi } from './contacts-api.js'
import { creditNotesApi, type CreditNotesApi } from './credit-notes-api.js'
import { customersApi, type CustomersApi } from './customers-api.js'
import { readApi, resourceOf, type ReadApi } from './resource-api.js'
import { tariffDetailsApi, tariffsApi, type TariffDetailsApi, type TariffsApi } from './tariffs-api.js'
import { callsApi, usageApi, type CallsApi, type UsageApi } from './usage-api.js'
import { toWire, type WireExpanded } from './wire.js'
import { carrierBillsApi, destinationsApi, destinationTablesApi, type CarrierBillsApi, type DestinationsApi, type DestinationTablesApi } from './carriers-api.js'
import { reportsApi, type ReportsApi } from './reports-api.js'
import { disasterRecoveryFilesApi, type DisasterRecoveryFilesApi } from './disaster-recovery-api.js'
import { checkSmtpUrl } from '../../adapters/delivery/smtp-mailer.js'

/** `T` with every array and object read-only, so `as const` content is taken too. */
type DeepReadonly<T> = T extends readonly (infer U)[] ? readonly DeepReadonly<U>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T

/**
 * Preset lists and the settings that go with them: whatever a presets file holds (README,
 * "Preset lists"), typed from the schema that reads the file, so the two cannot differ.
 */
export type PresetSettings = DeepReadonly<PresetsFileInput>

/** How to open a billing platform inside an application. */
export interface BillingPlatformOptions {
  /** `sqlite:<file>`, `sqlite::memory:` or `postgres://user[:pw]@host[:port]/db`; required unless `kysely` is given. */
  readonly databaseUrl?: string
  /** An existing Kysely instance to use instead; the application owns it (`close()` leaves it open). */
  readonly kysely?: { readonly db: AnyDb; readonly dialect: 'sqlite' | 'postgres' }
  /** Postgres schema to live in, created when missing (with `kysely`, set its search_path yourself). */
  readonly schema?: string
  /** Preset lists and settings, applied over `presetsFile` (or the defaults). */
  readonly presets?: PresetSettings
  /** A JSON presets file, as BILLING_PRESETS_FILE. */
  readonly presetsFile?: string
  /** Where the platform learns the time (default: the system clock in UTC). */
  readonly clock?: Clock
  /** Creates payment links (default: the providers' URL templates from the presets). */
  readonly paymentLinks?: PaymentLinkProvider
  /**
   * Hashes and checks portal passwords and PINs (default: scrypt, N = 16384). Hashes stored by
   * one hasher are checked by the same one only: choose it before the portal is opened.
   */
  readonly passwordHasher?: PasswordHasher
  /** Structured log of HTTP requests, scheduled jobs and unexpected errors (default: silent). */
  readonly logger?: Logger
  /**
   * Let webhooks point at loopback, private, link-local (cloud metadata) and other non-public
   * addresses, as BILLING_WEBHOOK_ALLOW_PRIVATE=true does (default false: refused when saved,
   * and checked again at each delivery).
   */
  readonly allowPrivateWebhooks?: boolean
  /** How long a webhook delivery attempt waits for its answer, as BILLING_WEBHOOK_TIMEOUT_MS (default 10000). */
  readonly webhookTimeoutMs?: number
  /** Invoice emails over SMTP (`smtp://` or `smtps://`, as BILLING_SMTP_URL); without it `.eml` files under `mailDir`. */
  readonly smtpUrl?: string
  /** Where `.eml` files go without `smtpUrl` (default ./data/mail). */
  readonly mailDir?: string
  /** Password of the disaster-recovery archives the scheduler writes, as BILLING_DR_PASSWORD; without it none is written. */
  readonly drPassword?: string
  /** Where those archives are written, as BILLING_DR_DIR (default ./data/dr). */
  readonly drDir?: string
  /** Days an archive stays available, as BILLING_DR_RETENTION_DAYS (default 7). */
  readonly drRetentionDays?: number
}

/** Settings of the embedded scheduler. */
export type SchedulerSettings = Parameters<Platform['createScheduler']>[0]

/**
 * A billing platform embedded in an application. Every use case of the HTTP API is offered
 * directly, with the same validation and the same errors (`BillingError` with its `.code`;
 * `errorCodeOf(error)` gives the API's numeric `error_code`). Items are answered in domain form
 * (money as exact bigint ten-thousandths); `toWire` gives the API's JSON shape.
 */
export interface BillingPlatform {
  /** Customers and their actions (lifecycle, PIN, accounting link, payment links, write-offs, ...). */
  readonly customers: CustomersApi
  /** Telephone numbers of customers. */
  readonly numbers: CustomerChildApi<'numbers'>
  /** Services of customers. */
  readonly services: CustomerChildApi<'services'>
  /** Billable features of customers, numbers and services. */
  readonly features: FeaturesApi
  /** Direct and shared contacts. */
  readonly contacts: ContactsApi
  /** Call tariffs. */
  readonly tariffs: TariffsApi<'tariffs'>
  /** Fixed fee tariffs. */
  readonly fixedFeeTariffs: TariffsApi<'fixedFeeTariffs'>
  /** The rates of call tariffs. */
  readonly tariffDetails: TariffDetailsApi<'tariffDetails'>
  /** The prices of fixed fee tariffs. */
  readonly fixedFeeTariffDetails: TariffDetailsApi<'fixedFeeTariffDetails'>
  /** The ledger and manual transactions. */
  readonly transactions: TransactionsApi
  /** Billing runs. */
  readonly billingRuns: BillingRunsApi
  /** Invoices. */
  readonly invoices: InvoicesApi
  /** Credit notes against invoices (contract 15.3); refunds are `customers.refund`. */
  readonly creditNotes: CreditNotesApi
  /** Usage file imports. */
  readonly usage: UsageApi
  /** Imported usage files. */
  readonly usageFiles: ReadApi<'usageFiles'>
  /** Calls. */
  readonly calls: CallsApi
  /** API keys of the HTTP API. */
  readonly apiKeys: ApiKeysApi
  /** Who changed what, when (contract 12). */
  readonly history: HistoryApi
  /** The ordered events feed, and `subscribe(handler)` in process. */
  readonly events: EventsApi
  /** Webhooks the worker delivers events to, and their deliveries. */
  readonly webhooks: WebhooksApi
  /** Destination tables (contract 17.2): where a record without chargeBand or callClass finds them. */
  readonly destinationTables: DestinationTablesApi
  /** The prefixes of destination tables, one at a time or from a CSV. */
  readonly destinations: DestinationsApi
  /** Carriers' bills and their reconciliation (contract 17.4). */
  readonly carrierBills: CarrierBillsApi
  /** Margin, commission statements and accounting journals (contract 16.2-16.4), as JSON or CSV. */
  readonly reports: ReportsApi
  /** Disaster-recovery archives (contract 8): their metadata, and each archive as a stream. */
  readonly disasterRecoveryFiles: DisasterRecoveryFilesApi
  /** The allowed values of a collection's preset fields (configured lists, tariff names). */
  presetValues(collection: ResourceName): Promise<Record<string, readonly string[]>>
  /** An item, or an expanded item, as the API's JSON returns it. */
  toWire<N extends ResourceName>(collection: N, value: ShownOf<N> | Expanded): WireExpanded<N>
  /**
   * The HTTP API as an h3 app (routes under /backend/api/v1, API keys required): mount it with
   * `hostApp.mount('/billing', platform.http)`, serve it with `toNodeHandler(platform.http)` from
   * `h3/node`, or call `platform.http.request(url, init)` / `platform.http.fetch(request)`.
   */
  readonly http: H3
  /** The database in use, without credentials. */
  readonly database: string
  /** Starts the scheduled jobs (billing runs, purges, archives) in this process; jobs are leased, so other processes may run them too. */
  startScheduler(settings?: SchedulerSettings): void
  /** Stops the scheduler, waiting for running jobs to finish. */
  stopScheduler(): Promise<void>
  /** Stops the scheduler and closes the database (a `kysely` instance given in the options stays open). */
  close(): Promise<void>
}

/**
 * A numeric option checked as its environment variable is (`env-numbers.ts`): a JavaScript caller
 * may pass anything, and 1.5 days, 0 or the text "7" must not reach a stored date (the text is read as 7).
 */
function optionalNumber(value: number | undefined, check: (text: string) => number): number | undefined {
  // Unset, as an unset variable is: the platform's default, never 0.
  if (value === undefined || value === null || (value as unknown) === '') return undefined
  return check(String(value))
}

/** Opens the database (migrating it) and assembles the platform. */
export async function createBillingPlatform(options: BillingPlatformOptions): Promise<BillingPlatform> {
  const base = options.presetsFile ? loadPresetsFile(options.presetsFile) : defaultPresets
  const platform = await openPlatform({
    databaseUrl: options.databaseUrl,
    kysely: options.kysely,
    schema: options.schema,
    presets: options.presets ? checkStandardFeatures(mergePresets(options.presets, base)) : base,
    clock: options.clock,
    paymentLinks: options.paymentLinks,
    passwordHasher: options.passwordHasher,
    logger: options.logger,
    allowPrivateWebhooks: options.allowPrivateWebhooks,
    webhookTimeoutMs: optionalNumber(options.webhookTimeoutMs, (v) => milliseconds('webhookTimeoutMs', v, 0)),
    smtpUrl: options.smtpUrl ? checkSmtpUrl(options.smtpUrl) : null,
    mailDir: options.mailDir,
    drPassword: options.drPassword,
    drDir: options.drDir,
    drRetentionDays: optionalNumber(options.drRetentionDays, (v) => positiveInt('drRetentionDays', v, 0)),
  })
  const ctx = platform.context
  let scheduler: Scheduler | null = null
  const stopScheduler = async () => {
    const running = scheduler
    scheduler = null
    await running?.stop()
  }
  let closing: Promise<void> | null = null
  const events = eventsApi(ctx)
  return {
    customers: customersApi(ctx),
    numbers: customerChildApi(ctx, 'numbers'),
    services: customerChildApi(ctx, 'services'),
    features: featuresApi(ctx),
    contacts: contactsApi(ctx),
    tariffs: tariffsApi(ctx, 'tariffs'),
    fixedFeeTariffs: tariffsApi(ctx, 'fixedFeeTariffs'),
    tariffDetails: tariffDetailsApi(ctx, 'tariffs'),
    fixedFeeTariffDetails: tariffDetailsApi(ctx, 'fixedFeeTariffs'),
    transactions: transactionsApi(ctx),
    billingRuns: billingRunsApi(ctx),
    invoices: invoicesApi(ctx),
    creditNotes: creditNotesApi(ctx),
    usage: usageApi(ctx),
    usageFiles: readApi(ctx, 'usageFiles'),
    calls: callsApi(ctx),
    apiKeys: apiKeysApi(ctx, platform.secrets),
    history: historyApi(ctx),
    events,
    webhooks: webhooksApi(ctx),
    destinationTables: destinationTablesApi(ctx),
    destinations: destinationsApi(ctx),
    carrierBills: carrierBillsApi(ctx),
    reports: reportsApi(ctx),
    disasterRecoveryFiles: disasterRecoveryFilesApi(ctx),
    presetValues: (collection) => presetValues(ctx, resourceOf(ctx, collection)),
    toWire,
    http: platform.app,
    database: platform.database.description,
    startScheduler(settings) {
      if (scheduler) return
      scheduler = platform.createScheduler(settings)
      scheduler.start()
    },
    stopScheduler,
    close: () => (closing ??= (events.stopAll(), stopScheduler()).then(() => platform.close())),
  }
}
