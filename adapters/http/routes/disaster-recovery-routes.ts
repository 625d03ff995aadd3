import type { H3Event } from 'h3'
import { getArchive, openArchive, unexpiredWhere } from '../../../core/disaster-recovery/archive-files.js'
import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import { jsonItem, requestIdOf } from '../respond.js'
import type { Route } from '../route.js'
import { listRoute } from './resource-routes.js'
import { readQuery } from '../query.js'

export const ARCHIVE_TYPE = 'application/x-7z-compressed'

/**
 * Disaster recovery files (billing-api.md; contract 8): read-only, every route needs the
 * dataProtectionDownload permission, expired or unknown files answer 404102.
 */
export function disasterRecoveryRoutes(files: Resource): Route[] {
  return [
    {
      ...listRoute(files, {
        path: '/disasterRecoveryFiles',
        summary: 'List the disaster recovery files still available (unexpired)',
        scope: async (ctx) => unexpiredWhere(ctx.platform.clock.today()),
      }),
      access: 'dataProtectionDownload',
    },
    {
      method: 'GET',
      path: '/disasterRecoveryFiles/:id',
      access: 'dataProtectionDownload',
      doc: {
        summary: `Fetch a file's metadata, or with Accept: ${ARCHIVE_TYPE} the encrypted archive itself`,
        resource: files.name,
        kind: 'get',
        errors: [404102],
      },
      async handler(event, ctx) {
        const item = await getArchive(ctx.platform, ctx.params.id)
        readQuery(event)
        if (!prefersArchive(event.req.headers.get('accept'))) return jsonItem(event, JSON.stringify(toWire(files, item)))
        const content = await openArchive(ctx.platform, item)
        return archiveResponse(event, item.filename as string, content)
      },
    },
  ]
}

function archiveResponse(event: H3Event, filename: string, content: { size: number; stream: ReadableStream<Uint8Array> }): Response {
  return new Response(content.stream, {
    status: 200,
    headers: {
      'content-type': ARCHIVE_TYPE,
      'content-length': String(content.size),
      'content-disposition': `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`,
      'cache-control': 'no-store',
      'x-request-id': requestIdOf(event),
    },
  })
}

/**
 * Whether the Accept header asks for the archive: it names the archive type with a weight
 * above that of `application/json` (absent counts 0). Anything else, or no header, is JSON.
 */
export function prefersArchive(accept: string | null): boolean {
  if (!accept) return false
  const weight = (type: string): number => {
    let best = 0
    for (const range of accept.split(',')) {
      const [media, ...params] = range.split(';').map((s) => s.trim().toLowerCase())
      if (media !== type) continue
      const q = params.find((p) => p.startsWith('q='))
      const value = q ? Number(q.slice(2)) : 1
      if (Number.isFinite(value)) best = Math.max(best, value)
    }
    return best
  }
  return weight(ARCHIVE_TYPE) > weight('application/json')
}
