import { BillingError, quoted } from '../errors.js'
import type { ParamsOf } from '../fields/entity.js'
import type { Field } from '../fields/field.js'
import type { Item } from '../fields/item.js'
import type { Resource } from '../fields/resource.js'
import { readParams } from '../input/action-params.js'
import type { PlatformContext } from '../platform.js'
import { getItem } from '../resources/resources.js'
import { recordChanges } from '../history/record-change.js'

/**
 * An action on an item that exists: its parameters, described as fields (name, wire type,
 * required) once for the body check, the TypeScript body type (`BodyOf`) and the OpenAPI
 * document; and what it does with the item and the checked parameters. It checks the item's
 * state itself, then answers the updated item or its own result (a PIN, payment links).
 */
export interface ItemAction<P extends readonly Field[] = readonly Field[], R = unknown, E extends Item = Item> {
  readonly params: P
  run(ctx: PlatformContext, item: E, params: ParamsOf<P>): Promise<R>
}

/** An action of items of type `E`; `params` keeps its literal type for the body and result types. */
export const itemAction = <E extends Item = Item>() =>
  <const P extends readonly Field[], R>(params: P, run: (ctx: PlatformContext, item: E, params: ParamsOf<P>) => Promise<R>): ItemAction<P, R, E> => ({ params, run })

/** A table of actions by name. */
export type ActionTable = Readonly<Record<string, ItemAction<readonly Field[], unknown, never>>>

/**
 * Runs a named action on an item in contract 2's order: the item must exist, then the body is
 * read, then the action name is looked up (`unknown_action`), then its parameters are read
 * (`missing_parameter`, `invalid_parameter`), then the action checks the rest.
 * `readBody` is where a transport reads and checks its body (HTTP: JSON; a library: an object);
 * `usage` is the hint of an unknown name, where the transport names its actions otherwise.
 */
export async function runItemAction(
  ctx: PlatformContext,
  resource: Resource,
  actions: ActionTable,
  id: string,
  name: string,
  readBody: () => unknown,
  usage = `Use ?action= with one of: ${Object.keys(actions).join(', ')}.`,
): Promise<unknown> {
  const item = await getItem(ctx, resource, id)
  const body = await readBody()
  const action = Object.hasOwn(actions, name) ? actions[name] : undefined
  if (!action) {
    throw new BillingError(
      'unknown_action',
      name ? `Action ${quoted(name)} is not recognised on ${resource.name}` : 'No action given',
      usage,
    )
  }
  const params = readParams(name, action.params, body, ctx.validator)
  // The action, its history entry and its event commit together (contract 12); the action's own
  // transactions join this one.
  return ctx.store.transaction(async (store) => {
    const repo = store.repository(resource.name)
    // Read, not locked: the action takes its locks in its own order (a customer before its children).
    const before = (await repo.get(id)) ?? item
    // The table of a collection holds actions on its items: `getItem` read this one from it.
    const result = await (action as ItemAction).run({ ...ctx, store }, item, params)
    const after = (await repo.get(id)) ?? null
    await recordChanges(store, ctx.clock, [{ resource, action: name, before, after }])
    return result
  })
}
