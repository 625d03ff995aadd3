import { callIncreaseScopes, fixedFeeIncreaseScopes } from '../presets/engine-lists.js'
import { date, field, num, preset } from './field.js'

/**
 * The surcharges a call tariff carries (`baseSurcharge<kind>`, `...Connection`, `...Rounding<kind>`)
 * and its rates mirror (`surcharge<kind>`, `surcharge<kind>Connection`) in `tariffDetails`.
 */
export const surcharges = [
  { kind: 'MobileOrigination', label: 'mobile-originated calls' },
  { kind: 'PayphoneOrigination', label: 'payphone-originated calls' },
  { kind: 'CallRecording', label: 'call recording' },
] as const
export type SurchargeKind = (typeof surcharges)[number]['kind']

/**
 * The read-only record of the last percentage increase (contract 9.6), on call and fixed fee
 * tariffs alike. `increaseOriginalID` holds the source tariff's ID (itself after an in-place
 * increase), so it is an `id`, not a preset (contract 4).
 */
export const increaseFields = (scopeList: 'callIncreaseScopes' | 'fixedFeeIncreaseScopes') => [
  field('increaseOriginalID', 'id', {
    readOnly: true,
    description: 'ID of the tariff the increase was based upon (itself for in-place increases)',
  }),
  num('increasePercent', { readOnly: true, description: 'increase percentage applied' }),
  date('increaseEffectiveDate', { readOnly: true, description: 'date from which the increase applies' }),
  preset('increaseScope', scopeList, {
    readOnly: true,
    values: scopeList === 'callIncreaseScopes' ? callIncreaseScopes : fixedFeeIncreaseScopes,
    description: 'which charges the increase covered',
  }),
]
