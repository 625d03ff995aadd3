import { addDestination } from '../../../core/resources/add-destination.js'
import { importDestinations } from '../../../core/destinations/import-destinations.js'
import type { Resource } from '../../../core/fields/resource.js'
import { getItem } from '../../../core/resources/resources.js'
import { parentScope } from '../../../core/resources/scopes.js'
import { csvFileBatches } from '../../csv/csv-file.js'
import { readJsonObject } from '../body.js'
import { bodyText } from '../lines.js'
import { apiPath } from '../mount-prefix.js'
import { json, jsonText } from '../respond.js'
import type { Route } from '../route.js'
import { toWireJson } from '../../../core/fields/wire-json.js'
import { createRoute, deleteRoute, getRoute, listRoute, queryAfterItem } from './resource-routes.js'
import { readQuery } from '../query.js'

/** Destination tables and their prefixes (contract 17.2). */
export function destinationRoutes(tables: Resource, destinations: Resource): Route[] {
  const path = `/${tables.name}/:id/${destinations.name}`
  return [
    listRoute(tables, { path: `/${tables.name}`, summary: 'List destination tables' }),
    createRoute(tables, { path: `/${tables.name}`, summary: 'Create a destination table' }),
    getRoute(tables),
    deleteRoute(tables, 'Delete a destination table and its prefixes'),
    listRoute(destinations, {
      path,
      summary: "List a destination table's prefixes (?prefix= for one)",
      scope: (ctx) => parentScope(ctx.platform.store, tables.name, ctx.params.id, 'destinationTableID'),
    }),
    {
      method: 'POST',
      path,
      streamsBody: true,
      doc: {
        summary: 'Add a prefix (JSON), or prefixes from a CSV (text/csv: prefix, chargeBand, callClass, description; all or nothing)',
        resource: destinations.name,
        kind: 'create',
        errors: [409001],
      },
      async handler(event, ctx) {
        await queryAfterItem(() => readQuery(event), () => getItem(ctx.platform, tables, ctx.params.id))
        const type = (event.req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
        if (type === 'text/csv') {
          const imported = await importDestinations(ctx.platform, ctx.params.id, csvFileBatches(bodyText(event)))
          return json(event, 201, { destinationTableID: ctx.params.id, imported })
        }
        const item = await addDestination(ctx.platform, ctx.params.id, () => readJsonObject(event))
        return jsonText(event, 201, toWireJson(destinations, item), { location: apiPath(event, `/${destinations.name}/${item.id}`) })
      },
    },
    getRoute(destinations),
    deleteRoute(destinations),
  ]
}
