import type { Resource } from '../../../core/fields/resource.js'
import { presetValues } from '../../../core/resources/preset-values.js'
import { json } from '../respond.js'
import type { Route } from '../route.js'
import { readQuery } from '../query.js'

/** `GET /presets/<collection>/`: the allowed values of every preset field (contract 4). */
export function presetRoute(resource: Resource): Route {
  return {
    method: 'GET',
    path: `/presets/${resource.name}`,
    doc: { summary: `Allowed values of the preset fields of ${resource.name}`, kind: 'other' },
    async handler(event, ctx) {
      readQuery(event)
      return json(event, 200, await presetValues(ctx.platform, resource))
    },
  }
}
