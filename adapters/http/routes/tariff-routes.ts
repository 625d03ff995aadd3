import { itemActions } from '../../../core/actions/action-table.js'
import { runItemAction, type ActionTable } from '../../../core/actions/item-actions.js'
import type { Item } from '../../../core/fields/item.js'
import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import { getItem } from '../../../core/resources/resources.js'
import { parentOwner, parentScope } from '../../../core/resources/scopes.js'
import { updateTariff } from '../../../core/resources/tariffs.js'
import type { TariffKind } from '../../../core/tariffs/increase-scopes.js'
import { readJsonObject } from '../body.js'
import { json } from '../respond.js'
import type { Route } from '../route.js'
import { createRoute, deleteRoute, getRoute, listRoute, queryAfterItem, updateRoute } from './resource-routes.js'
import { readQuery } from '../query.js'

/**
 * A kind of tariff with its rate table: CRUD on both, names unique, deletion refused while in
 * use, a rename carried to every user of the tariff; percentage increases in place or as a copy.
 */
export function tariffRoutes(tariff: Resource, details: Resource, ownerField: string): Route[] {
  return [
    listRoute(tariff, { path: `/${tariff.name}`, summary: `List ${tariff.name}` }),
    createRoute(tariff, { path: `/${tariff.name}`, summary: `Create a ${tariff.singular}` }),
    getRoute(tariff),
    {
      ...updateRoute(tariff),
      async handler(event, ctx) {
        await getItem(ctx.platform, tariff, ctx.params.id)
        readQuery(event)
        const body = await readJsonObject(event)
        return json(event, 200, toWire(tariff, await updateTariff(ctx.platform, tariff, ctx.params.id, body)))
      },
    },
    withErrors(deleteRoute(tariff, `Delete a ${tariff.singular} that no customer, number, service or feature uses`), [409002]),
    listRoute(details, {
      path: `/${tariff.name}/:id/${details.name}`,
      summary: `List the rates of a ${tariff.singular}`,
      scope: (ctx) => parentScope(ctx.platform.store, tariff.name, ctx.params.id, ownerField),
    }),
    createRoute(details, {
      path: `/${tariff.name}/:id/${details.name}`,
      summary: `Add a rate to a ${tariff.singular}`,
      owner: async (ctx) => (await parentOwner(ctx.platform.store, tariff.name, ctx.params.id, ownerField)) as Record<string, string>,
    }),
    getRoute(details),
    updateRoute(details),
    deleteRoute(details),
    ...increaseRoutes(tariff),
  ]
}

/**
 * `POST /<collection>/:id/applyIncrease` (expert level 5, enforced by the app before anything
 * else) and `POST /<collection>/:id/createIncreaseVersion`: the tariff, then the query, then the
 * body, then the parameters (contract 2's order). Both answer 200 with a tariff: the updated one, or the copy.
 * Any other name answers 400501 after the same checks (`POST /<collection>/:id/:action`).
 */
function increaseRoutes(tariff: Resource): Route[] {
  const actions: ActionTable = itemActions[tariff.name as TariffKind]
  const route = (action: 'applyIncrease' | 'createIncreaseVersion', summary: string): Route => ({
    method: 'POST',
    path: `/${tariff.name}/:id/${action}`,
    ...(action === 'applyIncrease' ? { access: 'expertLevel5' as const } : {}),
    doc: {
      summary,
      resource: tariff.name,
      kind: 'action',
      errors: [...(action === 'applyIncrease' ? [403101] : []), 400503, 400504],
      actions: [{ name: action, summary, params: actions[action].params }],
    },
    async handler(event, ctx) {
      await queryAfterItem(() => readQuery(event), () => getItem(ctx.platform, tariff, ctx.params.id))
      const item = await runItemAction(ctx.platform, tariff, { [action]: actions[action] }, ctx.params.id, action, () => readJsonObject(event))
      return json(event, 200, toWire(tariff, item as Item))
    },
  })
  return [
    route('applyIncrease', `Raise the prices of a ${tariff.singular} and its rates in place (expert level 5)`),
    route(
      'createIncreaseVersion',
      `Copy a ${tariff.singular} and its rates with prices raised; the same source, percentage and scope again answers the existing copy`,
    ),
    unknownActionRoute(tariff, Object.keys(actions)),
  ]
}

/**
 * A name of no action on an existing tariff answers 400501, as `?action=` routes do. h3 matches
 * the named routes and the rates first; the app keeps a path's own methods (POST `…/history` is 405).
 * It runs no action, whatever the name: each has its own route, applyIncrease its access rule.
 */
function unknownActionRoute(tariff: Resource, names: readonly string[]): Route {
  return {
    method: 'POST',
    path: `/${tariff.name}/:id/:action`,
    doc: { summary: `Any other action name on a ${tariff.singular}: 400501`, resource: tariff.name, kind: 'action', errors: [400501] },
    async handler(event, ctx) {
      await queryAfterItem(() => readQuery(event), () => getItem(ctx.platform, tariff, ctx.params.id))
      const usage = `Use POST /${tariff.name}/<id>/<action> with one of: ${names.join(', ')}.`
      await runItemAction(ctx.platform, tariff, {}, ctx.params.id, ctx.params.action, () => readJsonObject(event), usage)
      throw new Error('an empty action table runs no action')
    },
  }
}

const withErrors = (route: Route, errors: number[]): Route => ({ ...route, doc: { ...route.doc, errors } })
