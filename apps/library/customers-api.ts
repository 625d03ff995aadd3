import type { InputOf, ShownOf } from '../../core/fields/entity.js'
import type { PlatformContext } from '../../core/platform.js'
import { expandItems, expansionFlags, type ExpandingLevel } from '../../core/resources/expansions.js'
import type { ListSpec } from '../../core/resources/list-page.js'
import { scheduleCustomerDeletion } from '../../core/resources/resources.js'
import { actionRunner, create, readPage, resourceApi, resourceOf, shown, type ActionRunner, type AnyListParams, type ExpandablePage, type ListParams, type ResourceApi } from './resource-api.js'

/** Customers: create, read, update, schedule the deletion of, and act on (lifecycle, PIN, payment links, ...). */
export interface CustomersApi {
  /** Creates a customer: active, billable, with the fields of `body`. */
  create(body: InputOf<'customers'>): Promise<ShownOf<'customers'>>
  /** One customer by ID (a customer scheduled for deletion stays readable until purged). */
  get(id: string): Promise<ShownOf<'customers'>>
  /** One page of customers; filters and the flags expandNumbers, expandServices, expandFeatures, numberActive, serviceActive, featureActive. */
  list(params?: ListParams<'customers', ExpansionFlag<'customers'>>): Promise<ExpandablePage<ShownOf<'customers'>>>
  /** Partial merge of `body` into the customer. */
  update: ResourceApi<'customers'>['update']
  /** Schedules the purge of the customer 30 days from today (contract 5.6); answers the customer. */
  scheduleDeletion(id: string): Promise<ShownOf<'customers'>>
  /**
   * Runs an action: drop, reinstate, suspend, unsuspend, makeNonBillable, makeBillable, finalBill,
   * addSharedContact, removeSharedContact, generatePIN (answers `{ pin }`), linkToAccounting,
   * unlinkFromAccounting, generatePaymentLinks (answers the links), writeOffDebt, writeOffCredit,
   * restoreCalls. The others answer the updated customer.
   */
  readonly action: ActionRunner<'customers'>
}

/** The expansion flags a level's lists take (expandNumbers, featureActive, ...). */
export type ExpansionFlag<L extends ExpandingLevel> = (typeof expansionFlags)[L][number]

/** A page of an expanding level, with `expanded` when an expansion flag was given. */
export async function expandablePage<L extends ExpandingLevel>(ctx: PlatformContext, level: L, params: AnyListParams | undefined, spec: ListSpec = {}): Promise<ExpandablePage<ShownOf<L>>> {
  const { items, hasMore, request } = await readPage(ctx, level, params, { ...spec, flags: expansionFlags[level] })
  const expanding = [...request.flags].some((f) => f.startsWith('expand'))
  const page = expanding ? { items, hasMore, expanded: await expandItems(ctx.store, level, items, request.flags) } : { items, hasMore }
  return page as unknown as ExpandablePage<ShownOf<L>>
}

export function customersApi(ctx: PlatformContext): CustomersApi {
  const crud = resourceApi(ctx, 'customers')
  return {
    create: (body) => create(ctx, 'customers', body),
    get: crud.get,
    list: (params) => expandablePage<'customers'>(ctx, 'customers', params),
    update: crud.update,
    scheduleDeletion: (id) => shown(scheduleCustomerDeletion(ctx, resourceOf(ctx, 'customers'), id)),
    action: actionRunner(ctx, 'customers'),
  }
}
