import type { H3Event } from 'h3'
import { BillingError } from '../../../core/errors.js'
import type { Item } from '../../../core/fields/item.js'
import type { Resource } from '../../../core/fields/resource.js'
import { getItem } from '../../../core/resources/resources.js'
import { readJsonObject } from '../body.js'
import type { ActionDoc, RequestContext, Route } from '../route.js'
import { assertNoQuery } from './resource-routes.js'

/** An action on an item that exists: the body is a checked JSON object; returns the response. */
export type ActionHandler = (event: H3Event, ctx: RequestContext, item: Item, body: Record<string, unknown>) => Promise<Response>

/** An action: its handler, and what the OpenAPI document says of it (summary, params, result). */
export interface ActionDef extends Omit<ActionDoc, 'name'> {
  readonly handler: ActionHandler
  /** Error codes this action can answer besides the generic ones. */
  readonly errors?: readonly number[]
}

/**
 * `POST /<collection>/:id?action=<name>`: the item, then the body, then the action name, in the
 * order of contract 2; each action then checks its own parameters and the item's state.
 */
export function actionRoute(resource: Resource, actions: Readonly<Record<string, ActionDef>>): Route {
  const names = Object.keys(actions)
  return {
    method: 'POST',
    path: `/${resource.name}/:id`,
    doc: {
      summary: `Invoke an action on a ${resource.singular}: ${names.join(', ')}`,
      resource: resource.name,
      kind: 'action',
      query: ['action'],
      errors: [400501, 400502, 400503, 400504, ...new Set(names.flatMap((n) => actions[n].errors ?? []))],
      actions: names.map((name) => ({ name, summary: actions[name].summary, params: actions[name].params, result: actions[name].result })),
    },
    async handler(event, ctx) {
      assertNoQuery(event, ['action'])
      const item = await getItem(ctx.platform, resource, ctx.params.id)
      const body = await readJsonObject(event)
      const name = event.url.searchParams.get('action') ?? ''
      const action = Object.hasOwn(actions, name) ? actions[name] : undefined
      if (!action) {
        throw new BillingError(
          'unknown_action',
          name ? `Action "${name}" is not recognised on ${resource.name}` : 'No action given',
          `Use ?action= with one of: ${names.join(', ')}.`,
        )
      }
      return action.handler(event, ctx, item, body)
    },
  }
}

/** The names of the actions a route offers (for docs and tests). */
export const actionNames = (defs: Readonly<Record<string, ActionDef>>): string[] => Object.keys(defs)
