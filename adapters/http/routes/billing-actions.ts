import { changeRecurringCharge } from '../../../core/billing/change-charge.js'
import { writeOff } from '../../../core/billing/write-offs.js'
import { toWire } from '../../../core/fields/wire.js'
import { json } from '../respond.js'
import type { ActionDef } from './action-routes.js'

/** writeOffDebt and writeOffCredit on customers (contract 5.2, 9.2). */
export const writeOffActions: Record<string, ActionDef> = {
  writeOffDebt: {
    summary: 'Write off a dropped customer\'s debt with a Credit Note (dateWriteoff, vatTreatment)',
    async handler(event, ctx, item, body) {
      const customer = await writeOff(ctx.platform, item.id, 'debt', body)
      return json(event, 200, toWire(ctx.platform.resources.get('customers')!, customer))
    },
  },
  writeOffCredit: {
    summary: 'Write off a dropped customer\'s credit with a Debit Note (dateWriteoff, vatTreatment)',
    async handler(event, ctx, item, body) {
      const customer = await writeOff(ctx.platform, item.id, 'credit', body)
      return json(event, 200, toWire(ctx.platform.resources.get('customers')!, customer))
    },
  },
}

/** changeRecurringCharge on features (contract 9.4). */
export const chargeChangeActions: Record<string, ActionDef> = {
  changeRecurringCharge: {
    summary: 'Change the recurring charge and/or count from dateFrom (modes replace, add, delta)',
    errors: [400201],
    async handler(event, ctx, item, body) {
      const feature = await changeRecurringCharge(ctx.platform, item.id, body)
      return json(event, 200, toWire(ctx.platform.resources.get('features')!, feature))
    },
  },
}
