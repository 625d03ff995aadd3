import { json } from '../respond.js'
import type { Route } from '../route.js'

/** `GET /healthz`: 200 when the database answers (no authentication). */
export function healthRoute(): Route {
  return {
    method: 'GET',
    path: '/healthz',
    absolute: true,
    public: true,
    doc: { summary: 'Health check: 200 when the database answers', kind: 'other' },
    async handler(event, ctx) {
      try {
        await ctx.platform.store.apiKeys.count()
        return json(event, 200, { status: 'ok' })
      } catch {
        return json(event, 503, { status: 'unavailable' })
      }
    },
  }
}
