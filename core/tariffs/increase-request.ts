import { dateParam, readParams, type ParamRule } from '../actions/params.js'
import type { DateOnly } from '../dates/date-only.js'
import type { Values } from '../fields/item.js'
import { moneyToNumber, parseMoney, type Money } from '../money/money.js'
import { isScopeOf, tariffKinds, type IncreaseScope, type TariffKind } from './increase-scopes.js'

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

const percentRule: ParamRule<Money> = {
  name: 'increasePercent',
  required: true,
  hint: PERCENT_HINT,
  parse: (v) => {
    const p = parseMoney(v)
    return p !== null && p > LOWEST && p <= HIGHEST ? p : null
  },
}

const scopeRule = (kind: TariffKind): ParamRule<IncreaseScope> => ({
  name: 'increaseScope',
  required: true,
  hint: `one of ${tariffKinds[kind].scopes.join(', ')}.`,
  parse: (v) => (isScopeOf(kind, v) ? v : null),
})

/**
 * The body of applyIncrease and createIncreaseVersion: `increasePercent` and `increaseScope`
 * (required), and `increaseEffectiveDate` (optional, default today). Missing ones first
 * (400503), then unknown names and bad values (400504), as contract 2 orders them.
 */
export function readIncrease(action: string, kind: TariffKind, body: Record<string, unknown>, today: DateOnly): IncreaseRequest {
  const params = readParams(action, body, {
    percent: percentRule,
    scope: scopeRule(kind),
    effectiveDate: dateParam('increaseEffectiveDate'),
  })
  return { percent: params.percent!, scope: params.scope!, effectiveDate: params.effectiveDate ?? today }
}

/** The four read-only increase fields a tariff records (contract 9.6). */
export function increaseRecord(originalID: string, request: IncreaseRequest): Values {
  return {
    increaseOriginalID: originalID,
    increasePercent: moneyToNumber(request.percent),
    increaseScope: request.scope,
    increaseEffectiveDate: request.effectiveDate,
  }
}
