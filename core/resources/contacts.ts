import { BillingError, notFound } from '../errors.js'
import type { CustomerContact } from '../fields/entity.js'
import { ref } from '../fields/field.js'
import { parseListRequest, type RawParams } from './list-request.js'
import type { ListPage } from './list-page.js'
import { customerOwner } from './owners.js'
import type { ResourceContext } from './resources.js'
import { sharedContactRefine } from './scopes.js'

/** A direct contact becomes shared, staying linked to the customer it belonged to. */
export async function convertToSharedContact(ctx: ResourceContext, contactID: string): Promise<CustomerContact> {
  return ctx.store.transaction(async (store) => {
    const contact = await store.contacts.getForUpdate(contactID)
    if (!contact) throw notFound('customer contact', contactID)
    const owner = contact.customerID
    if (!owner) {
      throw new BillingError('state_not_allowed', `Contact ${contactID} is already shared`, 'Only a direct contact can be converted.')
    }
    await store.contacts.update(contactID, { customerID: null, updatedStamp: ctx.clock.now() })
    await store.contacts.link(owner, contactID)
    return (await store.contacts.get(contactID))!
  })
}

/** The parameter of addSharedContact and removeSharedContact. */
export const sharedContactParams = [ref('sharedContactID', { required: true, description: 'ID of a shared contact' })] as const

/** Links (or unlinks) an existing shared contact to a customer. */
export async function setSharedContactLink(
  ctx: ResourceContext,
  customerID: string,
  sharedContactID: string,
  linked: boolean,
): Promise<void> {
  await ctx.store.transaction(async (store) => {
    const contact = await store.contacts.get(sharedContactID)
    if (!contact) {
      throw new BillingError('invalid_parameter', `sharedContactID ${sharedContactID} names no contact`, 'Give the ID of a shared contact.')
    }
    if (contact.customerID !== null) {
      throw new BillingError(
        'invalid_parameter',
        `Contact ${sharedContactID} is a direct contact of customer ${contact.customerID}`,
        'Convert it with convertToSharedContact first, or give a shared contact.',
      )
    }
    if (linked) await store.contacts.link(customerID, sharedContactID)
    else if (!(await store.contacts.unlink(customerID, sharedContactID))) {
      throw new BillingError('state_not_allowed', `Contact ${sharedContactID} is not linked to customer ${customerID}`, 'Nothing to remove.')
    }
  })
}

/** One page of a customer's direct contacts plus the shared contacts linked to it. */
export async function listCustomerContacts(ctx: ResourceContext, customerID: string, params: RawParams): Promise<ListPage> {
  await customerOwner(ctx.store, customerID)
  const request = parseListRequest(ctx.store.contacts.resource, params)
  const rows = await ctx.store.contacts.listForCustomer(customerID, {
    where: [...request.where, ...sharedContactRefine(request)],
    idAfter: request.idAfter,
    offset: request.offset,
    limit: request.limit + 1,
  })
  const hasMore = rows.length > request.limit
  return { items: hasMore ? rows.slice(0, request.limit) : rows, hasMore, request }
}
