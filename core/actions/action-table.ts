import { changeRecurringCharge } from '../billing/change-charge.js'
import { writeOff } from '../billing/write-offs.js'
import { generatePaymentLinks, generatePIN, setAccountingID, UUID } from '../customers/side-effects.js'
import type { Item } from '../fields/item.js'
import { lifecycleActions, type LifecycleAction } from '../lifecycle/actions.js'
import type { Level } from '../lifecycle/levels.js'
import { runLifecycleAction } from '../lifecycle/run-action.js'
import { restoreCalls } from '../rating/calls.js'
import { convertToSharedContact, setSharedContactLink } from '../resources/contacts.js'
import { getItem } from '../resources/resources.js'
import type { ItemAction } from './item-actions.js'
import { idParam, readNoParams, readParams } from './params.js'

/** The lifecycle actions of one level (contract 5); only a customer has a final bill. */
function lifecycleRunners<A extends LifecycleAction>(level: Level, names: readonly A[]): Record<A, ItemAction> {
  return Object.fromEntries(
    names.map((action) => [action, (ctx, item, body) => runLifecycleAction(ctx, level, item.id, action, body)] satisfies [A, ItemAction]),
  ) as Record<A, ItemAction>
}

const childLifecycle = lifecycleActions.filter((a): a is Exclude<LifecycleAction, 'finalBill'> => a !== 'finalBill')

/** addSharedContact / removeSharedContact: the customer as it is after the link changed. */
const sharedContactLink =
  (name: 'addSharedContact' | 'removeSharedContact'): ItemAction =>
  async (ctx, item, body) => {
    const { sharedContactID } = readParams(name, body, { sharedContactID: idParam('sharedContactID') })
    await setSharedContactLink(ctx, item.id, sharedContactID!, name === 'addSharedContact')
    return getItem(ctx, ctx.resources.get('customers')!, item.id)
  }

/** The actions on customers (contracts 5, 7, 9), in the order the API lists them. */
const customerActions = {
  ...lifecycleRunners('customers', lifecycleActions),
  addSharedContact: sharedContactLink('addSharedContact'),
  removeSharedContact: sharedContactLink('removeSharedContact'),
  /** A new 6-digit portal PIN, answered once: `{ pin }`. */
  async generatePIN(ctx, item, body): Promise<{ pin: string }> {
    readNoParams('generatePIN', body)
    return generatePIN(ctx, item)
  },
  async linkToAccounting(ctx, item, body): Promise<Item> {
    const { accountingID } = readParams('linkToAccounting', body, {
      accountingID: {
        name: 'accountingID',
        required: true,
        hint: 'a UUID such as "0b8e0f0c-4f6a-4a8e-9a57-2d1c3e6f7a81".',
        parse: (v) => (typeof v === 'string' && UUID.test(v) ? v : null),
      },
    })
    return setAccountingID(ctx, item, accountingID)
  },
  async unlinkFromAccounting(ctx, item, body): Promise<Item> {
    readNoParams('unlinkFromAccounting', body)
    return setAccountingID(ctx, item, null)
  },
  /** Payment links for the link types of the customer's portal profile. */
  async generatePaymentLinks(ctx, item, body) {
    readNoParams('generatePaymentLinks', body)
    return generatePaymentLinks(ctx, item)
  },
  writeOffDebt: (ctx, item, body) => writeOff(ctx, item.id, 'debt', body),
  writeOffCredit: (ctx, item, body) => writeOff(ctx, item.id, 'credit', body),
  async restoreCalls(ctx, item, body): Promise<Item> {
    readNoParams('restoreCalls', body)
    await restoreCalls(ctx, item.id)
    return getItem(ctx, ctx.resources.get('customers')!, item.id)
  },
} satisfies Record<string, ItemAction<unknown>>

/**
 * Every action of every collection that has them: the one table the HTTP action routes and the
 * library both run. An action answers the updated item unless it has a result of its own.
 */
export const itemActions = {
  customers: customerActions,
  numbers: lifecycleRunners('numbers', childLifecycle),
  services: lifecycleRunners('services', childLifecycle),
  features: {
    ...lifecycleRunners('features', childLifecycle),
    changeRecurringCharge: (ctx, item, body) => changeRecurringCharge(ctx, item.id, body),
  } satisfies Record<string, ItemAction<unknown>>,
  customerContacts: {
    async convertToSharedContact(ctx, item, body): Promise<Item> {
      readNoParams('convertToSharedContact', body)
      return convertToSharedContact(ctx, item.id)
    },
  } satisfies Record<string, ItemAction<unknown>>,
}

/** The collections that have actions. */
export type ActionCollection = keyof typeof itemActions
/** The action names of a collection. */
export type ActionName<C extends ActionCollection> = keyof (typeof itemActions)[C] & string
/** What an action answers. */
export type ActionResult<C extends ActionCollection, N extends ActionName<C>> = (typeof itemActions)[C][N] extends ItemAction<infer R> ? R : never
