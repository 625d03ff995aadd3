import { idParam, readNoParams, readParams } from '../../../core/actions/params.js'
import { ref } from '../../../core/fields/field.js'
import { toWire } from '../../../core/fields/wire.js'
import { convertToSharedContact, setSharedContactLink } from '../../../core/resources/contacts.js'
import { getItem } from '../../../core/resources/resources.js'
import { json } from '../respond.js'
import type { ActionDef } from './action-routes.js'

/** `addSharedContact` / `removeSharedContact` on customers. */
export const sharedContactActions: Record<string, ActionDef> = Object.fromEntries(
  (['addSharedContact', 'removeSharedContact'] as const).map((name) => [
    name,
    {
      summary: `${name === 'addSharedContact' ? 'Link' : 'Unlink'} a shared contact (sharedContactID)`,
      params: [ref('sharedContactID', { required: true, description: 'ID of a shared contact' })],
      async handler(event, ctx, item, body) {
        const { sharedContactID } = readParams(name, body, { sharedContactID: idParam('sharedContactID') })
        await setSharedContactLink(ctx.platform, item.id, sharedContactID!, name === 'addSharedContact')
        const customers = ctx.platform.resources.get('customers')!
        return json(event, 200, toWire(customers, await getItem(ctx.platform, customers, item.id)))
      },
    } satisfies ActionDef,
  ]),
)

/** `convertToSharedContact` on contacts. */
export const contactActions: Record<string, ActionDef> = {
  convertToSharedContact: {
    summary: 'Make a direct contact shared, keeping its link to the customer',
    params: [],
    async handler(event, ctx, item, body) {
      readNoParams('convertToSharedContact', body)
      const contact = await convertToSharedContact(ctx.platform, item.id)
      return json(event, 200, toWire(ctx.platform.resources.get('customerContacts')!, contact))
    },
  },
}
