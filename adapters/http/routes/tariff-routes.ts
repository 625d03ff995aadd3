import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import { getItem } from '../../../core/resources/resources.js'
import { updateTariff } from '../../../core/resources/tariffs.js'
import { readJsonObject } from '../body.js'
import { json } from '../respond.js'
import type { Route } from '../route.js'
import { createRoute, deleteRoute, getRoute, listRoute, updateRoute } from './resource-routes.js'

/**
 * A kind of tariff with its rate table: CRUD on both, names unique, deletion refused while in
 * use, a rename carried to every user of the tariff.
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
        const body = await readJsonObject(event)
        return json(event, 200, toWire(tariff, await updateTariff(ctx.platform, tariff, ctx.params.id, body)))
      },
    },
    withErrors(deleteRoute(tariff, `Delete a ${tariff.singular} that no customer, number, service or feature uses`), [409002]),
    listRoute(details, {
      path: `/${tariff.name}/:id/${details.name}`,
      summary: `List the rates of a ${tariff.singular}`,
      scope: async (ctx) => {
        await getItem(ctx.platform, tariff, ctx.params.id)
        return [{ op: 'eq', column: ownerField, value: ctx.params.id }]
      },
    }),
    createRoute(details, {
      path: `/${tariff.name}/:id/${details.name}`,
      summary: `Add a rate to a ${tariff.singular}`,
      owner: async (ctx) => {
        await getItem(ctx.platform, tariff, ctx.params.id)
        return { [ownerField]: ctx.params.id }
      },
    }),
    getRoute(details),
    updateRoute(details),
    deleteRoute(details),
  ]
}

const withErrors = (route: Route, errors: number[]): Route => ({ ...route, doc: { ...route.doc, errors } })
