import type { InputOf, ShownOf } from '../../core/fields/entity.js'
import type { PlatformContext } from '../../core/platform.js'
import { listCustomerContacts } from '../../core/resources/contacts.js'
import { customerOwner } from '../../core/resources/owners.js'
import { sharedContactRefine } from '../../core/resources/scopes.js'
import { actionRunner, create, resourceApi, shownPage, toPage, toRawParams, type ActionRunner, type ListParams, type Page, type ResourceApi } from './resource-api.js'

type Contact = ShownOf<'customerContacts'>

/** Contacts: direct ones belong to a customer, shared ones are linked to many (`customers.action(id, 'addSharedContact', ...)`). */
export interface ContactsApi extends ResourceApi<'customerContacts'> {
  /** Creates a shared contact (no customer). */
  create(body: InputOf<'customerContacts'>): Promise<Contact>
  /** Creates a contact directly linked to the customer. */
  createDirect(customerID: string, body: InputOf<'customerContacts'>): Promise<Contact>
  /** One page of every contact; a dealerCode filter lists shared contacts only. */
  list(params?: ListParams<'customerContacts'>): Promise<Page<Contact>>
  /** The customer's direct contacts plus the shared contacts linked to it. */
  listOf(customerID: string, params?: ListParams<'customerContacts'>): Promise<Page<Contact>>
  /** convertToSharedContact: a direct contact becomes shared, staying linked; answers the contact. */
  readonly action: ActionRunner<'customerContacts'>
}

export function contactsApi(ctx: PlatformContext): ContactsApi {
  return {
    ...resourceApi(ctx, 'customerContacts', { refine: sharedContactRefine }),
    create: (body) => create(ctx, 'customerContacts', body),
    createDirect: (customerID, body) => create(ctx, 'customerContacts', body, () => customerOwner(ctx.store, customerID)),
    listOf: async (customerID, params) => shownPage('customerContacts', toPage(await listCustomerContacts(ctx, customerID, toRawParams(params)))),
    action: actionRunner(ctx, 'customerContacts'),
  }
}
