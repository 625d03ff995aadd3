import { BillingError } from '../errors.js'
import type { Item } from '../fields/item.js'
import type { Resource } from '../fields/resource.js'
import type { PlatformContext } from '../platform.js'
import { getItem } from '../resources/resources.js'

/**
 * An action on an item that exists, given its body as an object: it checks its own parameters
 * and the item's state, then answers the updated item or its own result (a PIN, payment links).
 */
export type ItemAction<R = Item> = (ctx: PlatformContext, item: Item, body: Record<string, unknown>) => Promise<R>

/** The body of a request as an object, or `invalid_body` (a body must be a JSON object). */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BillingError('invalid_body', 'The body must be a JSON object', 'Send a JSON object such as {"field": "value"}.')
  }
  return body as Record<string, unknown>
}

/**
 * Runs a named action on an item in contract 2's order: the item must exist, then the body is
 * read, then the action name is looked up (`unknown_action`), then the action checks the rest.
 * `readBody` is where a transport reads and checks its body (HTTP: JSON; a library: an object).
 */
export async function runItemAction<A extends Readonly<Record<string, ItemAction<unknown>>>>(
  ctx: PlatformContext,
  resource: Resource,
  actions: A,
  id: string,
  name: string,
  readBody: () => Record<string, unknown> | Promise<Record<string, unknown>>,
): Promise<unknown> {
  const item = await getItem(ctx, resource, id)
  const body = await readBody()
  const action = Object.hasOwn(actions, name) ? actions[name] : undefined
  if (!action) {
    throw new BillingError(
      'unknown_action',
      name ? `Action "${name}" is not recognised on ${resource.name}` : 'No action given',
      `Use ?action= with one of: ${Object.keys(actions).join(', ')}.`,
    )
  }
  return action(ctx, item, body)
}
