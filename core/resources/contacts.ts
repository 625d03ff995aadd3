import { BillingError, notFound } from '../errors.js'
import type { Item } from '../fields/item.js'
import type { ResourceContext } from './resources.js'

/** A direct contact becomes shared, staying linked to the customer it belonged to. */
export async function convertToSharedContact(ctx: ResourceContext, contactID: string): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    const contact = await store.contacts.getForUpdate(contactID)
    if (!contact) throw notFound('customer contact', contactID)
    const owner = contact.customerID as string | null
    if (!owner) {
      throw new BillingError('state_not_allowed', `Contact ${contactID} is already shared`, 'Only a direct contact can be converted.')
    }
    await store.contacts.update(contactID, { customerID: null, updatedStamp: ctx.clock.now() })
    await store.contacts.link(owner, contactID)
    return (await store.contacts.get(contactID))!
  })
}

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
