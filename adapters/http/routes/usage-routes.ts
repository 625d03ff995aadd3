import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import { deleteCall } from '../../../core/rating/calls.js'
import { getItem } from '../../../core/resources/resources.js'
import { parentScope } from '../../../core/resources/scopes.js'
import { importUsageText } from '../../csv/usage-file-import.js'
import { assertCsv, bodyText } from '../lines.js'
import { json } from '../respond.js'
import { BASE_PATH, type Route } from '../route.js'
import type { ActionDocDef } from './action-routes.js'
import { getRoute, listRoute, queryAfterItem } from './resource-routes.js'
import { apiPath } from '../mount-prefix.js'
import { readQuery } from '../query.js'

/** Usage files (CSV imports) and the calls they bring (contract 9.6). */
export function usageRoutes(usageFiles: Resource, calls: Resource, customers: Resource, numbers: Resource): Route[] {
  const scoped = (parent: Resource, column: string): Route =>
    listRoute(calls, {
      path: `/${parent.name}/:id/calls`,
      summary: `List a ${parent.singular}'s calls`,
      scope: (ctx) => parentScope(ctx.platform.store, parent.name, ctx.params.id, column),
    })
  return [
    {
      method: 'POST',
      path: '/usageFiles',
      streamsBody: true,
      doc: {
        summary: "Import a CSV usage file (text/csv), in our layout or a carrier's (?format= a usageFormats name); all-or-nothing, duplicates skipped",
        resource: 'usageFiles',
        kind: 'create',
        query: ['name', 'format'],
        contentType: 'text/csv',
      },
      async handler(event, ctx) {
        const query = readQuery(event, ['name', 'format'])
        assertCsv(event, 'the usage file')
        const file = await importUsageText(ctx.platform, bodyText(event), query.get('name'), query.get('format'))
        return json(event, 201, toWire(usageFiles, file), { location: apiPath(event, `/usageFiles/${file.id}`) })
      },
    },
    listRoute(usageFiles, { path: '/usageFiles', summary: 'List imported usage files' }),
    getRoute(usageFiles),
    listRoute(calls, { path: '/calls', summary: 'List calls' }),
    getRoute(calls),
    scoped(customers, 'customerID'),
    scoped(numbers, 'numberID'),
    {
      method: 'DELETE',
      path: '/calls/:id',
      doc: { summary: 'Mark a call deleted (not billed until restored)', resource: 'calls', kind: 'delete' },
      async handler(event, ctx) {
        await queryAfterItem(() => readQuery(event), () => getItem(ctx.platform, calls, ctx.params.id))
        return json(event, 200, toWire(calls, await deleteCall(ctx.platform, ctx.params.id)))
      },
    },
  ]
}

/** The customer action restoreCalls; answers the customer. */
export const restoreCallsActionDoc: Record<string, ActionDocDef> = {
  restoreCalls: { summary: "Restore the customer's deleted calls" },
}
