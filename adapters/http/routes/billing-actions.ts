import type { ActionDocDef } from './action-routes.js'

/** writeOffDebt and writeOffCredit on customers (contract 5.2, 9.2); each answers the customer. */
export const writeOffActionDocs: Record<string, ActionDocDef> = {
  writeOffDebt: { summary: "Write off a dropped customer's debt with a Credit Note (dateWriteoff, vatTreatment)" },
  writeOffCredit: { summary: "Write off a dropped customer's credit with a Debit Note (dateWriteoff, vatTreatment)" },
}

/** changeRecurringCharge on features (contract 9.4); answers the feature. */
export const chargeChangeActionDocs: Record<string, ActionDocDef> = {
  changeRecurringCharge: {
    summary: 'Change the recurring charge and/or count from dateFrom (modes replace, add, delta)',
    errors: [400201],
  },
}
