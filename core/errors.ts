/**
 * Expected failures of the domain. Each has a stable code; the HTTP adapter (and only it)
 * turns a code into a status and the contract's numeric `error_code`.
 */
export const errorCodes = [
  'invalid_body',          // body is not a JSON object
  'invalid_field',         // unknown, wrong type, malformed, or not a configured preset
  'read_only_field',       // a read-only field given a different value
  'invalid_query',         // bad query parameter
  'invalid_charge_change', // changeRecurringCharge input (billing-api.md's list)
  'unknown_action',
  'state_not_allowed',     // the item's state or a precondition refuses the action
  'missing_parameter',
  'invalid_parameter',
  'unauthenticated',
  'expert_level_required',
  'expert_level_3_required', // credit notes, refunds (contract 3, 15.3)
  'data_protection_required',
  'not_found',
  'dr_file_not_found',
  'unique_taken',
  'in_use',
  'locked',
  'idempotency_conflict',
  'rate_limited',
  'payment_links_failed',
] as const

/** The stable code of an expected failure. */
export type ErrorCode = (typeof errorCodes)[number]

/**
 * Where the caller can read more than a hint says: the allowed values of a collection's preset
 * fields, the description of its fields, or its list. Each face says where that is its own way (the HTTP
 * adapter: the URL of the presets or OpenAPI document), so core's hints name no URL.
 */
export type Reference = { readonly presetsOf: string } | { readonly fieldsOf: string } | { readonly listOf: string }

/** An expected failure: its stable `code`, a message naming what is wrong, and a `hint` on how to fix it. */
export class BillingError extends Error {
  override readonly name = 'BillingError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint: string = '',
    /** Where to read more, when the hint is not all there is to know. */
    readonly see?: Reference,
  ) {
    super(message)
  }
}

/** Whether a thrown value is an expected failure (anything else is unexpected). */
export const isBillingError = (e: unknown): e is BillingError => e instanceof BillingError

export function notFound(what: string, id: string): BillingError {
  return new BillingError('not_found', `${what} ${id} does not exist`, 'Check the ID; list the collection to find it.')
}

/** At most this many characters of a value appear in an error message. */
export const QUOTED_CHARS = 100

/**
 * A value as an error message quotes it: in double quotes, its first 100 characters at most,
 * then how many more there were. A message echoing whole values let a 200 MB line come back,
 * several times over, in its own error.
 */
export function quoted(text: string): string {
  if (text.length <= QUOTED_CHARS) return `"${text}"`
  return `"${text.slice(0, QUOTED_CHARS)}…" (${text.length - QUOTED_CHARS} more characters)`
}
