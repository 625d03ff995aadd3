import { sql, type RawBuilder } from 'kysely'
import type { Stamp } from '../../../core/dates/stamp.js'

const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/

/**
 * A bound on the start of calls as a literal, not a parameter (checked to be a stamp), for the
 * reads that repeat with the same months: a run's batches (`unbilledCalls`, bounded by the run)
 * and an import's allowance reads (`allowanceCalls`, bounded by a month). The statement is then
 * one text for those bounds, and Postgres prunes the months of calls when it plans it, generic
 * plan included. With the bounds as parameters the generic plan named every month's partition,
 * looked dearer than a plan of the statement's own, and was not chosen: each execution was
 * planned again over every month, 2-14 ms against 0.1-0.4 ms of reading over 24 months; now the
 * sixth on a connection takes the generic plan, planned in 0.05 ms (bench/RESULTS.md, session 34).
 */
export function stampLiteral(value: string): RawBuilder<Stamp> {
  if (!STAMP.test(value)) throw new Error(`not a stamp: ${value}`)
  return sql.lit(value as Stamp)
}
