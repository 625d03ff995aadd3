import { chargeChangeParams, changeRecurringCharge } from '../billing/change-charge.js'
import { runLifecycleAction } from '../billing/lifecycle-action.js'
import { writeOff, writeOffParams } from '../billing/write-offs.js'
import { accountingParams, generatePaymentLinks, generatePIN, setAccountingID } from '../customers/side-effects.js'
import type { BodyOf, Customer, Entities } from '../fields/entity.js'
import type { Field } from '../fields/field.js'
import type { Item } from '../fields/item.js'
import { toParsedAction } from '../lifecycle/action-params.js'
import { lifecycleParams, type LifecycleAction } from '../lifecycle/actions.js'
import type { Level } from '../lifecycle/levels.js'
import { restoreCalls } from '../rating/calls.js'
import { convertToSharedContact, setSharedContactLink, sharedContactParams } from '../resources/contacts.js'
import { applyIncrease } from '../tariffs/apply-increase.js'
import { increaseParams, toIncreaseRequest } from '../tariffs/increase-request.js'
import type { TariffKind } from '../tariffs/increase-scopes.js'
import { createIncreaseVersion } from '../tariffs/increase-version.js'
import { itemAction, type ItemAction } from './item-actions.js'
import { queueResend, resendParams } from '../delivery/resend.js'

const none = [] as const

/** The lifecycle actions of one level (contract 5), each with its parameters from `lifecycleParams`. */
function lifecycleRunners<L extends Level>(level: L) {
  const params = lifecycleParams[level]
  const runners = Object.entries(params).map(([action, p]) => [
    action,
    itemAction()(p, (ctx, item, values) => runLifecycleAction(ctx, item.id, toParsedAction(level, action as LifecycleAction, values, ctx.clock))),
  ])
  // One runner per entry of the level's table, under its name: the table's own type, runners for values.
  return Object.fromEntries(runners) as {
    readonly [A in keyof (typeof lifecycleParams)[L]]: (typeof lifecycleParams)[L][A] extends infer P extends readonly Field[] ? ItemAction<P, Item> : never
  }
}

const customerAction = itemAction<Customer>()

/** addSharedContact / removeSharedContact: the customer as it is after the link changed. */
const sharedContactLink = (linked: boolean) =>
  customerAction(sharedContactParams, async (ctx, customer, { sharedContactID }) => {
    await setSharedContactLink(ctx, customer.id, sharedContactID, linked)
    return (await ctx.store.repository('customers').get(customer.id))!
  })

/** applyIncrease and createIncreaseVersion on a kind of tariff (contract 9.6). */
const increaseActions = <K extends TariffKind>(kind: K) => ({
  applyIncrease: itemAction()(increaseParams[kind], (ctx, tariff, params) =>
    applyIncrease(ctx, kind, tariff.id, toIncreaseRequest(params, ctx.clock.today())),
  ),
  createIncreaseVersion: itemAction()(increaseParams[kind], (ctx, tariff, params) =>
    createIncreaseVersion(ctx, kind, tariff.id, toIncreaseRequest(params, ctx.clock.today())),
  ),
})

/** The actions on customers (contracts 5, 7, 9), in the order the API lists them. */
const customerActions = {
  ...lifecycleRunners('customers'),
  addSharedContact: sharedContactLink(true),
  removeSharedContact: sharedContactLink(false),
  /** A new 6-digit portal PIN, answered once: `{ pin }`. */
  generatePIN: customerAction(none, (ctx, customer) => generatePIN(ctx, customer)),
  linkToAccounting: customerAction(accountingParams, (ctx, customer, { accountingID }) => setAccountingID(ctx, customer, accountingID)),
  unlinkFromAccounting: customerAction(none, (ctx, customer) => setAccountingID(ctx, customer, null)),
  /** Payment links for the link types of the customer's portal profile. */
  generatePaymentLinks: customerAction(none, (ctx, customer) => generatePaymentLinks(ctx, customer)),
  writeOffDebt: customerAction(writeOffParams, (ctx, customer, params) => writeOff(ctx, customer.id, 'debt', params)),
  writeOffCredit: customerAction(writeOffParams, (ctx, customer, params) => writeOff(ctx, customer.id, 'credit', params)),
  restoreCalls: customerAction(none, async (ctx, customer) => {
    await restoreCalls(ctx, customer.id)
    return (await ctx.store.repository('customers').get(customer.id))!
  }),
}

/**
 * Every action of every collection that has them: the one table the HTTP action routes and the
 * library both run. An action answers the updated item unless it has a result of its own.
 */
export const itemActions = {
  customers: customerActions,
  numbers: lifecycleRunners('numbers'),
  services: lifecycleRunners('services'),
  features: {
    ...lifecycleRunners('features'),
    changeRecurringCharge: itemAction<Entities['features']>()(chargeChangeParams, (ctx, feature, params) => changeRecurringCharge(ctx, feature.id, params)),
  },
  customerContacts: {
    convertToSharedContact: itemAction<Entities['customerContacts']>()(none, (ctx, contact) => convertToSharedContact(ctx, contact.id)),
  },
  tariffs: increaseActions('tariffs'),
  fixedFeeTariffs: increaseActions('fixedFeeTariffs'),
  invoices: {
    /** Queues another email delivery (contract 14.2); answers the invoice. */
    resend: itemAction<Entities['invoices']>()(resendParams, (ctx, invoice, { email }) => queueResend(ctx, invoice, email)),
  },
}

/** The collections that have actions. */
export type ActionCollection = keyof typeof itemActions
/** The action names of a collection. */
export type ActionName<C extends ActionCollection> = keyof (typeof itemActions)[C] & string
type ActionOf<C extends ActionCollection, N extends ActionName<C>> = (typeof itemActions)[C][N]
/** The body an action takes, in the API's wire form (dates as `YYYY-MM-DD`, amounts as numbers or decimal strings). */
export type ActionBody<C extends ActionCollection, N extends ActionName<C>> = ActionOf<C, N> extends ItemAction<infer P extends readonly Field[], unknown, never> ? BodyOf<P> : never
/** What an action answers. */
export type ActionResult<C extends ActionCollection, N extends ActionName<C>> = ActionOf<C, N> extends ItemAction<readonly Field[], infer R, never> ? R : never
