import { BillingError, quoted } from '../../core/errors.js'
import { formatAmount, LARGEST_AMOUNT, moneyToNumber, parseMoney as parseAmount, withinMoneyBound, type Money } from '../../core/money/money.js'

/**
 * An amount as the API's JSON gives it (a number such as 12.5, or a decimal string such as
 * "12.50"), as the library's exact `Money` (bigint ten-thousandths). At most 4 decimal places
 * and at most 99999999999.9999 either side of zero, as the API takes amounts; anything else is
 * an `invalid_field` error, as the API answers it.
 */
export function parseMoney(value: number | string): Money {
  const amount = parseAmount(value)
  if (amount === null) throw new BillingError('invalid_field', `${JSON.stringify(value)} is not an amount`, 'Give a number or a decimal string with at most 4 decimal places, e.g. 12.5 or "12.50".')
  if (!withinMoneyBound(amount)) throw new BillingError('invalid_field', `${quoted(String(value))} is beyond the largest amount accepted`, `Give an amount of at most ${LARGEST_AMOUNT} either side of zero.`)
  return amount
}

/**
 * An exact `Money` as decimal text with at least `places` decimals (default 2: "12.50"). Never
 * rounded: a fourth decimal place that is not zero is shown ("0.1234").
 */
export function formatMoney(amount: Money, places: 0 | 1 | 2 | 3 | 4 = 2): string {
  return formatAmount(amount, places)
}

/** An exact `Money` as the JSON number the API answers (12.5 for 12.50): exact for any amount below 900 billion. */
export const toWireMoney = (amount: Money): number => moneyToNumber(amount)
