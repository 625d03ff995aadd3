import type { Resource } from '../../../core/fields/resource.js'
import { json } from '../respond.js'
import type { Route } from '../route.js'
import { assertNoQuery } from './resource-routes.js'

/** `GET /presets/<collection>/`: the allowed values of every preset field (contract 4). */
export function presetRoute(resource: Resource): Route {
  return {
    method: 'GET',
    path: `/presets/${resource.name}`,
    doc: { summary: `Allowed values of the preset fields of ${resource.name}`, kind: 'other' },
    async handler(event, ctx) {
      assertNoQuery(event)
      const out: Record<string, readonly string[]> = {}
      const refs = new Map<string, string[]>()
      for (const f of resource.fields) {
        if (f.type !== 'preset' && f.type !== 'presets') continue
        if (f.internal || (f.readOnly && !f.createOnly)) continue
        if (f.ref) {
          if (!refs.has(f.ref)) refs.set(f.ref, await ctx.platform.store.tariffNames(f.ref))
          out[f.name] = refs.get(f.ref)!
        } else if (f.list) {
          out[f.name] = ctx.platform.presets.lists[f.list] ?? []
        }
      }
      return json(event, 200, out)
    },
  }
}
