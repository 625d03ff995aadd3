/** Where a call came from, as a usage record gives it: mobile and payphone origination surcharges apply. */
export const originations = ['fixed', 'mobile', 'payphone', 'voip'] as const
export type Origination = (typeof originations)[number]
