import { date, preset, type Field } from '../../../core/fields/field.js'
import { toWire } from '../../../core/fields/wire.js'
import { actionsOf, paramSpecs, type ParamSpec } from '../../../core/lifecycle/actions.js'
import type { Level } from '../../../core/lifecycle/levels.js'
import { runLifecycleAction } from '../../../core/lifecycle/run-action.js'
import { json } from '../respond.js'
import type { ActionDef } from './action-routes.js'

const summaries: Record<string, string> = {
  drop: 'Drop (status, dateDrop required); cascades to children',
  reinstate: 'Reinstate (status, dateReinstate required); brings back what the drop cascaded to',
  suspend: 'Suspend (status required, dateSuspend default today): recurring charges deferred',
  unsuspend: 'Unsuspend (status required, dateUnsuspend default today): missed charges back-filled',
  makeNonBillable: 'Make non-billable (status required, dateMakeNonBillable default today)',
  makeBillable: 'Make billable (status required, dateMakeBillable default today): missed charges back-filled',
  finalBill: 'Final bill (status, dateFinalBill required): billed until that date in the next run',
}

/** The lifecycle actions of one level (contract 5), answering the updated item. */
export function lifecycleActions(level: Level): Record<string, ActionDef> {
  return Object.fromEntries(
    actionsOf(level).map((action) => [
      action,
      {
        summary: summaries[action],
        params: paramSpecs(level, action).map(toParamField),
        async handler(event, ctx, item, body) {
          const updated = await runLifecycleAction(ctx.platform, level, item.id, action, body)
          return json(event, 200, toWire(ctx.platform.resources.get(level)!, updated))
        },
      } satisfies ActionDef,
    ]),
  )
}

const presetLists: Record<Exclude<ParamSpec['kind'], 'date'>, string> = {
  status: 'statuses',
  statusReason: 'statusReasons',
  ignoreTrafficType: 'ignoreTrafficTypes',
}

/** A lifecycle action parameter described as a field, for the OpenAPI document. */
function toParamField(spec: ParamSpec): Field {
  const o = { required: spec.required }
  return spec.kind === 'date' ? date(spec.name, o) : preset(spec.name, presetLists[spec.kind], o)
}
