import { fromUnits, ZERO, type Money } from '../../core/money/money.js'
import type { DatabaseDialect } from './dialect/dialect.js'

/** A money column's value as read by the driver (a sum over no rows is null: zero). */
export function moneyColumn(dialect: DatabaseDialect, value: unknown): Money {
  return value === null || value === undefined ? ZERO : fromUnits(dialect.decodeBigint(value))
}
