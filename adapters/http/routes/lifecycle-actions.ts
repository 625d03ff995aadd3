import { actionsOf } from '../../../core/lifecycle/actions.js'
import type { Level } from '../../../core/lifecycle/levels.js'
import type { ActionDocDef } from './action-routes.js'

const summaries: Record<string, string> = {
  drop: 'Drop (status, dateDrop required); cascades to children',
  reinstate: 'Reinstate (status, dateReinstate required); brings back what the drop cascaded to',
  suspend: 'Suspend (status required, dateSuspend default today): recurring charges deferred',
  unsuspend: 'Unsuspend (status required, dateUnsuspend default today): missed charges back-filled',
  makeNonBillable: 'Make non-billable (status required, dateMakeNonBillable default today)',
  makeBillable: 'Make billable (status required, dateMakeBillable default today): missed charges back-filled',
  finalBill: 'Final bill (status, dateFinalBill required): billed until that date in the next run',
}

/** The documentation of the lifecycle actions of one level (contract 5); each answers the updated item. */
export function lifecycleActionDocs(level: Level): Record<string, ActionDocDef> {
  return Object.fromEntries(
    actionsOf(level).map((action) => [action, { summary: summaries[action] } satisfies ActionDocDef]),
  )
}
