/**
 * telco-billing as a library: `createBillingPlatform(options)` opens a database (migrating it)
 * and offers every use case of the HTTP API directly, the HTTP API itself as an h3 app to mount,
 * and the scheduler. This is the package's only entry point.
 *
 * @example
 * const billing = await createBillingPlatform({ databaseUrl: 'sqlite::memory:' })
 * const customer = await billing.customers.create({ accountNumber: 'ACC-1', lastname: 'Lovelace' })
 * await billing.close()
 */
export {
  createBillingPlatform,
  type BillingPlatform,
  type BillingPlatformOptions,
  type PresetSettings,
  type SchedulerSettings,
} from './apps/library/billing-platform.js'
export { errorCodeOf, toWire } from './apps/library/wire.js'
export { formatMoney, parseMoney, toWireMoney } from './apps/library/money.js'
export { BillingError, errorCodes, isBillingError, type ErrorCode } from './core/errors.js'

export type { ActionAnswer, ActionRunner, Body, ExpandablePage, ListParams, ListParamValue, Page, ReadApi, ResourceApi } from './apps/library/resource-api.js'
export type * from './apps/library/types.js'
export type { FilterNameOf, InputOf, PatchOf, ShownOf, WireOf } from './core/fields/entity.js'
export type { WireExpanded } from './apps/library/wire.js'
export type { CustomersApi } from './apps/library/customers-api.js'
export type { InvoicePreview, PreviewDocumentOptions, PreviewInvoice, PreviewLine } from './apps/library/invoice-preview.js'
export type { CreditNoteRequest, CreditNotesApi, RefundInput } from './apps/library/credit-notes-api.js'
export type { CustomerChildApi, FeatureOwner, FeaturesApi } from './apps/library/children-api.js'
export type { ContactsApi } from './apps/library/contacts-api.js'
export type { TariffDetailsApi, TariffsApi } from './apps/library/tariffs-api.js'
export type { BillingRunsApi, DocumentOptions, InvoicesApi, TransactionsApi } from './apps/library/billing-api.js'
export type { CallsApi, UsageApi, UsageImportOptions } from './apps/library/usage-api.js'
export type { CarrierBillReconciliation, CarrierBillsApi, CsvLines, DestinationsApi, DestinationTablesApi, ReconciliationLine } from './apps/library/carriers-api.js'
export type { CommissionParams, CommissionStatementLine, CommissionStatements, DocumentAnswer, Journal, JournalLine, JournalParams, JournalTotals, MarginFigures, MarginParams, MarginReport, MarginRow, ReportOptions, ReportsApi, RunJournalOptions } from './apps/library/reports-api.js'
export type { DisasterRecoveryArchive, DisasterRecoveryFilesApi } from './apps/library/disaster-recovery-api.js'
export type { ApiKeysApi } from './apps/library/api-keys-api.js'
export type { BillingEvent, EventsApi, HistoriedCollection, HistoryApi, SubscribeOptions, WebhooksApi } from './apps/library/events-api.js'

export type { ActionBody, ActionCollection, ActionName, ActionResult } from './core/actions/action-table.js'
export type { FieldValue, Item } from './core/fields/item.js'
export type { ResourceName } from './core/fields/resource.js'
export type { Expanded } from './core/resources/expansions.js'
export type { Money } from './core/money/money.js'
export type { DateOnly } from './core/dates/date-only.js'
export type { Stamp } from './core/dates/stamp.js'
export type { PaymentLink } from './core/customers/side-effects.js'
export type { RunOptions, RunOutcome } from './core/billing/run-billing.js'
export type { ApiKey } from './core/ports/api-key-repository.js'
export type { NewKey } from './core/access/api-keys.js'
export type { Clock } from './core/ports/clock.js'
export type { PaymentLinkProvider, PaymentLinkRequest } from './core/ports/payment-link-provider.js'
export type { PasswordHasher } from './core/ports/password-hasher.js'
export type { PaymentLinkType, PaymentProvider } from './core/presets/presets.js'
export type { Logger } from './apps/platform/logger.js'
/** A clock that stands still until moved (`set`, `advanceMs`): tests and simulations. */
export { FixedClock } from './adapters/persistence/system-clock.js'
/** A pino logger writing JSON lines (to stderr by default), as the server and the worker log. */
export { createLogger, type LoggerOptions } from './apps/platform/logger.js'
