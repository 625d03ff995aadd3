import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import { deleteCall } from '../../../core/rating/calls.js'
import { importUsageFile } from '../../../core/rating/import-usage.js'
import { getItem } from '../../../core/resources/resources.js'
import { parentScope } from '../../../core/resources/scopes.js'
import { usageLines } from '../../csv/usage-lines.js'
import { carrierColumnsNamed, carrierFormatLines } from '../../csv/carrier-format.js'
import { BillingError, quoted } from '../../../core/errors.js'
import type { UsageFormat } from '../../../core/presets/carrier-maps.js'
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
        assertCsv(event)
        const name = query.get('name')
        const formatName = query.get('format')
        const format = formatName === null ? null : usageFormatOf(ctx.platform.presets.usageFormats, formatName)
        const lines = format ? carrierFormatLines(usageLines(bodyText(event), format.delimiter), formatName!, format, ctx.platform.clock.now()) : usageLines(bodyText(event))
        const file = await importUsageFile(ctx.platform, lines, name).catch((error: unknown) => {
          throw format ? carrierColumnsNamed(error, format) : error
        })
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

/** The presets' format of that name; an unknown name is `400101` naming the parameter and the names there are. */
function usageFormatOf(formats: Readonly<Record<string, UsageFormat>>, name: string): UsageFormat {
  const format = Object.hasOwn(formats, name) ? formats[name] : undefined
  if (format) return format
  const names = Object.keys(formats)
  throw new BillingError('invalid_field', `format ${quoted(name)} is not a usageFormats name`, names.length ? `Formats: ${names.join(', ')}.` : 'The presets file defines no usageFormats.')
}
