import { isBillingError, type ErrorCode, type Reference } from '../../core/errors.js'
import { BASE_PATH } from './route.js'

/** Failures only the HTTP edge knows about. */
export type HttpErrorCode = 'route_not_found' | 'method_not_allowed' | 'request_timeout' | 'body_too_large' | 'unsupported_media_type' | 'handler_timeout'

/** The one place that turns a failure code into a status and the contract's `error_code`. */
const table: Record<ErrorCode | HttpErrorCode, [status: number, errorCode: number]> = {
  invalid_body: [400, 400100],
  invalid_field: [400, 400101],
  read_only_field: [400, 400102],
  invalid_query: [400, 400103],
  invalid_charge_change: [400, 400201],
  unknown_action: [400, 400501],
  state_not_allowed: [400, 400502],
  missing_parameter: [400, 400503],
  invalid_parameter: [400, 400504],
  unauthenticated: [401, 401001],
  expert_level_required: [403, 403101],
  expert_level_3_required: [403, 403103],
  data_protection_required: [403, 403102],
  route_not_found: [404, 404000],
  not_found: [404, 404001],
  dr_file_not_found: [404, 404102],
  method_not_allowed: [405, 405001],
  unique_taken: [409, 409001],
  in_use: [409, 409002],
  locked: [409, 409003],
  request_timeout: [408, 408001],
  idempotency_conflict: [409, 409004],
  body_too_large: [413, 413001],
  unsupported_media_type: [415, 415001],
  rate_limited: [429, 429001],
  payment_links_failed: [500, 500521],
  handler_timeout: [503, 503001],
}

/** A failure raised at the HTTP edge, with the headers its answer carries (Allow, Retry-After). */
export class HttpFailure extends Error {
  constructor(
    readonly code: ErrorCode | HttpErrorCode,
    message: string,
    readonly hint: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export interface ErrorBody {
  readonly error: string
  readonly error_code: number
  readonly hint: string
}

/** Status, body and extra headers for any thrown value; unexpected ones are sanitised. */
export function toErrorParts(error: unknown): { status: number; body: ErrorBody; headers: Record<string, string>; unexpected: boolean } {
  if (isBillingError(error) || error instanceof HttpFailure) {
    const [status, code] = table[error.code]
    return {
      status,
      body: { error: error.message, error_code: code, hint: isBillingError(error) ? withReference(error.hint, error.see) : error.hint },
      headers: error instanceof HttpFailure ? error.headers : {},
      unexpected: false,
    }
  }
  return {
    status: 500,
    body: {
      error: 'Unexpected failure',
      error_code: 500000,
      hint: 'Retry later; if it persists, report the X-Request-Id of this response.',
    },
    headers: {},
    unexpected: true,
  }
}

/** A core hint with the URL of what it refers to (core names no URL: contract 4, 9.7). */
function withReference(hint: string, see: Reference | undefined): string {
  if (!see) return hint
  const where =
    'presetsOf' in see
      ? `GET ${BASE_PATH}/presets/${see.presetsOf}/ lists the allowed values`
      : 'fieldsOf' in see
        ? `GET ${BASE_PATH}/openapi.json describes the fields of ${see.fieldsOf}`
        : `GET ${BASE_PATH}/${see.listOf}/ lists them`
  return hint ? `${hint} ${where}.` : `${where}.`
}

export const statusOf = (code: ErrorCode | HttpErrorCode): number => table[code][0]
export const errorCodeOf = (code: ErrorCode | HttpErrorCode): number => table[code][1]
