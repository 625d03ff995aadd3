import { addDays, type DateOnly } from '../../../core/dates/date-only.js'
import type { Condition } from '../../../core/ports/resource-repository.js'

/**
 * An invoice's status is worked out against today where it is read (contract 17.6): the stored
 * one says whether it is paid (allocation keeps that in step with every payment), and an unpaid
 * one is overdue once today is after its overdue date, whether or not the daily job has run.
 */
export function statusToday(stored: unknown, overdueDate: unknown, today: DateOnly): unknown {
  if (stored !== 'Unpaid' && stored !== 'Overdue') return stored
  return typeof overdueDate === 'string' && today > overdueDate ? 'Overdue' : 'Unpaid'
}

/**
 * The `?status=` filter on the stored columns: `Paid` as stored; `Overdue` and `Unpaid` among the
 * unpaid ones by their overdue date against today. Other conditions pass as they are.
 */
export function statusConditions(where: readonly Condition[], today: DateOnly): Condition[] {
  return where.flatMap((c): Condition[] => {
    if (c.column !== 'status' || c.op !== 'eq' || (c.value !== 'Overdue' && c.value !== 'Unpaid')) return [c]
    const unpaid: Condition = { op: 'in', column: 'status', values: ['Unpaid', 'Overdue'] }
    return c.value === 'Overdue'
      ? [unpaid, { op: 'lte', column: 'overdueDate', value: addDays(today, -1) }]
      : [unpaid, { op: 'gte', column: 'overdueDate', value: today }]
  })
}
