import type { Item } from '../../core/fields/item.js'
import type { PlatformContext } from '../../core/platform.js'
import { listCustomerContacts } from '../../core/resources/contacts.js'
import { customerOwner } from '../../core/resources/owners.js'
import { sharedContactRefine } from '../../core/resources/scopes.js'
import { actionRunner, create, resourceApi, toPage, toRawParams, type ActionRunner, type Body, type ListParams, type Page, type ResourceApi } from './resource-api.js'

/** Contacts: direct ones belong to a customer, shared ones are linked to many (`customers.action(id, 'addSharedContact', ...)`). */
export interface ContactsApi extends ResourceApi {
  /** Creates a shared contact (no customer). */
  create(body: Body): Promise<Item>
  /** Creates a contact directly linked to the customer. */
  createDirect(customerID: string, body: Body): Promise<Item>
  /** One page of every contact; a dealerCode filter lists shared contacts only. */
  list(params?: ListParams): Promise<Page>
  /** The customer's direct contacts plus the shared contacts linked to it. */
  listOf(customerID: string, params?: ListParams): Promise<Page>
  /** convertToSharedContact: a direct contact becomes shared, staying linked; answers the contact. */
  readonly action: ActionRunner<'customerContacts'>
}

export function contactsApi(ctx: PlatformContext): ContactsApi {
  return {
    ...resourceApi(ctx, 'customerContacts', { refine: sharedContactRefine }),
    create: (body) => create(ctx, 'customerContacts', body),
    createDirect: (customerID, body) => create(ctx, 'customerContacts', body, () => customerOwner(ctx.store, customerID)),
    listOf: async (customerID, params) => toPage(await listCustomerContacts(ctx, customerID, toRawParams(params))),
    action: actionRunner(ctx, 'customerContacts'),
  }
}
