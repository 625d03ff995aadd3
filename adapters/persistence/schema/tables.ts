import type { ColumnType, Kysely } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import type { Stamp } from '../../../core/dates/stamp.js'
import type { catalogue } from '../../../core/fields/catalogue.js'
import type { FieldsOf } from '../../../core/fields/entity.js'
import type { WireType } from '../../../core/fields/field.js'
import type { ResourceName } from '../../../core/fields/resource.js'
import type { LifecycleAction } from '../../../core/lifecycle/actions.js'
import type { Level } from '../../../core/lifecycle/levels.js'
import type { PartitionStatus } from '../../../core/ports/run-partitions.js'

/**
 * The database's tables and their rows as Kysely sees them (`Kysely<Tables>`), so a misspelt
 * table or column, or a value of the wrong type, fails to compile. Catalogue resources' tables
 * are derived from the field catalogue (one column per stored field); the platform's own tables
 * are written out here, as their migrations create them.
 *
 * Values are typed as the drivers hand them over and take them, which differs between the two
 * databases (dialect/dialect.ts): an integer column is a number on SQLite and decimal text on
 * Postgres (bigint), a boolean is 0 or 1.
 */

/** An integer column's value (IDs, money in minor units, epoch milliseconds): SQLite gives a number, Postgres bigint text. */
export type Integer = number | bigint | string

/** An `id` primary key: generated on insert unless given (restores, reserved IDs), never updated. */
type Id = ColumnType<Integer, Integer | undefined, never>

/** The column of a stored field of each wire type (dates and stamps their text, lists and JSON their JSON text). */
interface StoredTypes {
  id: Integer
  text: string
  number: number
  currency: Integer
  date: DateOnly
  datetime: Stamp
  boolean: number
  preset: string
  presets: string
  json: string
}

/** The names a field's `values` fix (a billing run's status), or never. */
type Named<F> = F extends { readonly values: readonly (infer V extends string)[] } ? V : never

/**
 * A stored field's column: null when unset, except the ID and flags (`not null default 0`); a
 * single name with `values` is one of them, as in the entity types (core/fields/entity.ts).
 */
type ColumnOf<F> = F extends { readonly name: 'id' }
  ? Id
  : F extends { readonly type: 'boolean' }
    ? ColumnType<number, number | undefined, number>
    : F extends { readonly type: infer T extends WireType }
      ? (T extends 'presets' ? string : [Named<F>] extends [never] ? StoredTypes[T] : Named<F>) | null
      : never

/** The row of a catalogue resource's table: a column for each field not computed when read. */
export type StoredRowOf<R> = {
  [F in FieldsOf<R> as F extends { readonly computed: true } ? never : F['name']]: ColumnOf<F>
}

type Catalogue = typeof catalogue

/** The catalogue's tables by table name (`billing_runs`, `customer_contacts`, ...). */
export type CatalogueTables = {
  [N in ResourceName as Catalogue[N]['table']]: StoredRowOf<Catalogue[N]>
}

export interface ApiKeysTable {
  id: Id
  name: string
  keyHash: string
  expertLevel: number
  /** JSON array of permission names. */
  permissions: string
  createdStamp: string
  revokedStamp: string | null
}

/** Shared contacts linked to customers (addSharedContact). */
export interface CustomerSharedContactsTable {
  customerID: Integer
  contactID: Integer
}

/** One state change of one item (core/lifecycle/events.ts). */
export interface LifecycleEventsTable {
  id: Id
  customerID: Integer
  level: Level
  itemId: Integer
  action: LifecycleAction
  date: DateOnly
  stamp: Stamp
}

/** Traffic of a dropped number that rating ignores from a date. */
export interface IgnoreTrafficTable {
  id: Id
  customerID: Integer
  numberID: Integer
  number: string | null
  type: string
  fromDate: DateOnly
  /** The day its number was reinstated (migration 0070): traffic from then on is billed again. Null while not. */
  reinstatedDate: DateOnly | null
}

export interface JobLeasesTable {
  name: string
  holder: string
  /** Epoch milliseconds. */
  expiresAt: Integer
}

/** Responses kept for Idempotency-Key retries; `status` null while the first request runs. */
export interface IdempotencyKeysTable {
  scope: string
  key: string
  fingerprint: string
  /** Epoch milliseconds. */
  createdAt: Integer
  status: ColumnType<number | null, number | null | undefined, number | null>
  headers: ColumnType<string | null, string | null | undefined, string | null>
  body: ColumnType<string | null, string | null | undefined, string | null>
  /** The claiming request's token, while it runs. */
  owner: ColumnType<string | null, string | null | undefined, string | null>
  /** Epoch milliseconds the claim lasts to unrenewed; null or past: lapsed. */
  leaseUntil: ColumnType<Integer | null, Integer | null | undefined, Integer | null>
}

/** A feature's reconciled mark (core/billing/reconciled-mark.ts). */
export interface LedgerReconciledTable {
  featureID: Integer
  inputs: string
}

/** What was allocated where when payments and credits pay invoices (contract 10.3). */
export interface InvoiceAllocationsTable {
  invoiceID: Integer
  customerID: Integer
  transactionID: Integer | null
  creditInvoiceID: Integer | null
  amount: Integer
  allocatedDate: DateOnly
}

/** Credit a customer holds for its next invoice (contract 10.3): a row only while it holds some. */
export interface HeldCreditsTable {
  customerID: Integer
  amount: Integer
}

/** A billing run's ranges of customers that workers claim (core/ports/run-partitions.ts). */
export interface BillingRunPartitionsTable {
  id: Id
  billingRunID: Integer
  status: PartitionStatus
  afterCustomerID: Integer
  lastCustomerID: Integer | null
  progressCustomerID: Integer
  customersTotal: number
  customersDone: ColumnType<number, number | undefined, number>
  invoiceCount: ColumnType<number, number | undefined, number>
  holder: string | null
  /** Epoch milliseconds on the claiming host; 0 when not leased. */
  leaseExpiresAt: ColumnType<Integer, Integer | undefined, Integer>
}

/** The last invoice number given (contract 14.1): one row, updated in the transaction that raises invoices. */
export interface InvoiceNumberSequenceTable {
  id: number
  last: Integer
}

/** The call-marks counter (core/ports/call-marks.ts): one row, made by its first use. */
export interface CallMarksTable {
  id: number
  mark: number
}

/** The earliest start of calls marked with a mark, a row per writer that noted one (`CallMarks.noteSince`). */
export interface CallMarkStartsTable {
  mark: number
  since: string
}

/** A portal session by the digest of its token (contract 14.3). */
export interface PortalSessionsTable {
  tokenHash: string
  customerID: string | null
  contactID: string | null
  actor: string
  csrfToken: string
  createdStamp: string
  lastSeenStamp: string
  /** The digest of the contact's password hash at sign-in (migration 0069); null for a PIN's session. */
  passwordDigest: string | null
  /** The digest of the contact's email at sign-in (migration 0075); null for a PIN's session. */
  emailDigest: string | null
  /** The digest of the customer's account number and PIN hash at sign-in (migration 0076); null for a contact's session. */
  pinDigest: string | null
  /** The opening of each customer's portal at sign-in, JSON by customer ID (migration 0078); null from before. */
  portalOpenings: string | null
}

/** One failed portal sign-in of a login (`email:<address>` or `account:<number>`). */
export interface PortalLoginFailuresTable {
  id: Id
  login: string
  stamp: string
}

/** An invoice's rows summed per account code and VAT rate ('' for none), written with it (migration 0060, repositories/invoice-journal-lines.ts). */
export interface InvoiceJournalLinesTable {
  invoiceID: Integer
  accountCode: string
  VATRate: string
  net: Integer
  VATAmount: Integer
}

/** A provider callback processed (migration 0064): its Standard Webhooks `webhook-id`, once per provider. */
/** The last call whose duplicate key may be of its looked-up band and class (migration 0066); 0 when none. */
export interface OldCallKeysTable {
  throughCallID: Integer
}

/** The last call whose key may hold its carrier as spelt (migration 0087); no row when none. */
export interface SpeltCarrierKeysTable {
  throughCallID: Integer
}

/** The last call stored before calls recorded the feature that priced them (migration 0088); no row when none. */
export interface UnrecordedPricingFeaturesTable {
  throughCallID: Integer
}

/** The key of each call keyed by its carrier's record ID, claimed as it is stored where calls are partitioned (migration 0087). */
export interface ExternalCallKeysTable {
  fingerprint: string
}

/** A feature no line of a carrier's bill matched, as the bill was posted (migration 0067). */
export interface CarrierBillMissingTable {
  carrierBillID: Integer
  featureID: Integer
  expectedCost: Integer
}

/**
 * What a completed run's row earned commission on (migration 0071, reports/commission-terms.ts): the
 * terms then, of the feature that earned. Its term columns (`TERM_TEXT`, `TERM_MONEY` there) are read by SQL alone.
 */
export interface CommissionTermsTable {
  billingRunID: Integer
  transactionID: Integer
  featureID: Integer
  kind: string
  customerID: Integer
  accountNumber: string | null
  customerHolder: string | null
  commissionReferenceDate: DateOnly | null
  saleType: string | null
  /** The primary holder: the feature's, else its customer's. */
  holder: string | null
  commissionHolderID2: string | null
}

export interface CallbackReceiptsTable {
  provider: string
  webhookID: string
  receivedStamp: string
}

/** Every table of the platform (Kysely's own migration tables aside). */
export interface Tables extends CatalogueTables {
  api_keys: ApiKeysTable
  customer_shared_contacts: CustomerSharedContactsTable
  lifecycle_events: LifecycleEventsTable
  ignore_traffic: IgnoreTrafficTable
  job_leases: JobLeasesTable
  idempotency_keys: IdempotencyKeysTable
  ledger_reconciled: LedgerReconciledTable
  invoice_allocations: InvoiceAllocationsTable
  held_credits: HeldCreditsTable
  billing_run_partitions: BillingRunPartitionsTable
  invoice_number_sequence: InvoiceNumberSequenceTable
  portal_sessions: PortalSessionsTable
  call_marks: CallMarksTable
  call_mark_starts: CallMarkStartsTable
  portal_login_failures: PortalLoginFailuresTable
  invoice_journal_lines: InvoiceJournalLinesTable
  callback_receipts: CallbackReceiptsTable
  old_call_keys: OldCallKeysTable
  spelt_carrier_keys: SpeltCarrierKeysTable
  external_call_keys: ExternalCallKeysTable
  unrecorded_pricing_features: UnrecordedPricingFeaturesTable
  carrier_bill_missing: CarrierBillMissingTable
  commission_terms: CommissionTermsTable
  /** Events waiting for their IDs (migration 0072, dialect/event-numbers.ts), shaped as `events`. */
  unnumbered_events: CatalogueTables['events']
}

/** The database as the adapters query it. */
export type Db = Kysely<Tables>

/**
 * The one escape hatch: the database with any table and column name, for code that names its
 * tables at run time: a catalogue resource's repository and list conditions (which serve
 * whichever resource they are given), snapshots and bulk inserts (any table), and migrations
 * (which, as Kysely advises, must not depend on today's `Tables`: they build the tables it
 * describes). Everything else queries `Db`.
 */
export type AnyDb = Kysely<any>

/** `db` through the escape hatch, for one query on a table named at run time (see `AnyDb`). */
export const anyTables = (db: Db): AnyDb => db
