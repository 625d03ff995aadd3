import { addDays, type DateOnly } from '../../../core/dates/date-only.js'
import type { Condition } from '../../../core/ports/resource-repository.js'

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
