import type { DateOnly } from '../dates/date-only.js'
import { BillingError } from '../errors.js'
import type { CallTariff, FixedFeeTariff, ParamsOf, ValuesOf } from '../fields/entity.js'
import { currency, date, preset } from '../fields/field.js'
import { moneyToNumber, type Money } from '../money/money.js'
import type { IncreaseScope, TariffKind } from './increase-scopes.js'
import { tariffKinds } from './increase-scopes.js'

/** What an increase action asks for, checked. */
export interface IncreaseRequest {
  /** In ten-thousandths of a percent: 3.5% is 35000n. */
  readonly percent: Money
  readonly scope: IncreaseScope
  readonly effectiveDate: DateOnly
}

/** A decrease may go down to, but not reach, -100% (which would zero every price). */
const LOWEST = -1_000_000n
/** Anything above a tenfold price is a typing mistake, not an increase. */
const HIGHEST = 10_000_000n

export const PERCENT_HINT =
  'a percentage above -100 and at most 1000 with at most 4 decimal places, e.g. 3.5 (negative for a decrease).'

const scopeMeaning: Record<TariffKind, string> = {
  tariffs: '`costOnly` (baseCost and each rate\'s cost) or `allCharges` (every price of the tariff and its rates).',
  fixedFeeTariffs: '`recurringOnly` (each price\'s serviceCharge) or `recurringAndConnections` (serviceCharge and connectionCharge).',
}

/** The parameters of applyIncrease and createIncreaseVersion on a kind of tariff (contract 9.6). */
const paramsOf = <K extends TariffKind>(kind: K) =>
  [
    currency('increasePercent', { required: true, description: `the percentage: ${PERCENT_HINT} Prices are rounded half up to 4 decimal places.` }),
    preset('increaseScope', tariffKinds[kind].scopeList, { required: true, values: tariffKinds[kind].scopes, description: `which prices it raises: ${scopeMeaning[kind]}` }),
    date('increaseEffectiveDate', { description: 'date from which the increase applies, recorded on the tariff; default today' }),
  ] as const

export const increaseParams = { tariffs: paramsOf('tariffs'), fixedFeeTariffs: paramsOf('fixedFeeTariffs') }

/** The checked body of an increase: the percentage within its bounds, the effective date today when not given. */
export function toIncreaseRequest(params: ParamsOf<ReturnType<typeof paramsOf>>, today: DateOnly): IncreaseRequest {
  if (params.increasePercent <= LOWEST || params.increasePercent > HIGHEST) {
    throw new BillingError('invalid_parameter', `Invalid value for parameter "increasePercent": ${moneyToNumber(params.increasePercent)}`, `Give increasePercent as ${PERCENT_HINT}`)
  }
  return { percent: params.increasePercent, scope: params.increaseScope, effectiveDate: params.increaseEffectiveDate ?? today }
}

/** The four read-only increase fields a tariff records (contract 9.6). */
export function increaseRecord(originalID: string, request: IncreaseRequest): ValuesOf<CallTariff | FixedFeeTariff> {
  return {
    increaseOriginalID: originalID,
    increasePercent: moneyToNumber(request.percent),
    increaseScope: request.scope,
    increaseEffectiveDate: request.effectiveDate,
  }
}
