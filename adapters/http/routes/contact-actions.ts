import type { ActionDocDef } from './action-routes.js'

/** `addSharedContact` / `removeSharedContact` on customers; each answers the customer. */
export const sharedContactActionDocs: Record<string, ActionDocDef> = Object.fromEntries(
  (['addSharedContact', 'removeSharedContact'] as const).map((name) => [
    name,
    { summary: `${name === 'addSharedContact' ? 'Link' : 'Unlink'} a shared contact (sharedContactID)` } satisfies ActionDocDef,
  ]),
)

/** `convertToSharedContact` on contacts. */
export const contactActionDocs: Record<string, ActionDocDef> = {
  convertToSharedContact: { summary: 'Make a direct contact shared, keeping its link to the customer' },
}
