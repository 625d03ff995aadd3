import type { H3Event } from 'h3'
import type { Item } from '../../../core/fields/item.js'
import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import { getItem } from '../../../core/resources/resources.js'
import { runItemAction, type ActionTable, type ItemAction } from '../../../core/actions/item-actions.js'
import { readJsonObject } from '../body.js'
import { json } from '../respond.js'
import type { ActionDoc, Route } from '../route.js'
import { queryAfterItem } from './resource-routes.js'
import { readQuery } from '../query.js'

/** What the OpenAPI document says of an action besides its parameters (core's): summary, result, the errors it adds. */
export interface ActionDocDef extends Omit<ActionDoc, 'name' | 'params'> {
  /** Error codes this action can answer besides the generic ones. */
  readonly errors?: readonly number[]
}

/**
 * An action: what it does (a core action of `itemActions`) and its documentation. It answers the
 * updated resource, or its own result when the documentation describes one (`result`).
 */
export interface ActionDef extends ActionDocDef {
  readonly action: ItemAction
}

/**
 * `POST /<collection>/:id?action=<name>`: the item, then the query, then the body, then the action
 * name, in the order of contract 2; each action then checks its own parameters and the item's state.
 */
export function actionRoute(resource: Resource, actions: Readonly<Record<string, ActionDef>>): Route {
  const names = Object.keys(actions)
  const table: ActionTable = Object.fromEntries(names.map((name) => [name, actions[name].action]))
  return {
    method: 'POST',
    path: `/${resource.name}/:id`,
    doc: {
      summary: `Invoke an action on a ${resource.singular}: ${names.join(', ')}`,
      resource: resource.name,
      kind: 'action',
      query: ['action'],
      errors: [400501, 400502, 400503, 400504, ...new Set(names.flatMap((n) => actions[n].errors ?? []))],
      actions: names.map((name) => ({ name, summary: actions[name].summary, params: actions[name].action.params, result: actions[name].result })),
    },
    async handler(event, ctx) {
      const name = await queryAfterItem(() => actionName(event), () => getItem(ctx.platform, resource, ctx.params.id))
      const result = await runItemAction(ctx.platform, resource, table, ctx.params.id, name, () => readJsonObject(event))
      const ownResult = Object.hasOwn(actions, name) && actions[name].result
      return json(event, 200, ownResult ? result : toWire(resource, result as Item))
    },
  }
}

/** The action `?action=` names: given once, since running one of two names would be a guess (400103, `readQuery`). */
const actionName = (event: H3Event): string => readQuery(event, ['action']).get('action') ?? ''

/**
 * Pairs each action of a core table with its documentation, in the table's order: the names
 * and behaviour come from the core, only the documentation from here.
 */
export function documented(table: ActionTable, docs: Readonly<Record<string, ActionDocDef>>): Record<string, ActionDef> {
  return Object.fromEntries(
    Object.entries(table).map(([name, action]) => {
      const doc = docs[name]
      if (!doc) throw new Error(`action ${name} has no documentation`)
      return [name, { ...doc, action: action as ItemAction }]
    }),
  )
}

/** The names of the actions a route offers (for docs and tests). */
export const actionNames = (defs: Readonly<Record<string, ActionDef>>): string[] => Object.keys(defs)
