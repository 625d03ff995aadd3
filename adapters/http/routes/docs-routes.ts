import type { H3Event } from 'h3'
import type { PlatformContext } from '../../../core/platform.js'
import { assetContent, assetFiles, assetVersion, docsPage, type AssetFile } from '../api-reference.js'
import { toOpenApiDocument } from '../openapi/openapi-document.js'
import { mountPrefix } from '../mount-prefix.js'
import { requestIdOf } from '../respond.js'
import type { Route } from '../route.js'

/**
 * `GET /openapi.json` and `GET /docs` with the files the page loads: public (contract 3). The
 * document describes `routes()`, the whole table these routes end up in, themselves included.
 */
export function docsRoutes(routes: () => readonly Route[]): Route[] {
  // One text per platform and mount point: the document's `servers` names where it is served.
  const documents = new WeakMap<PlatformContext, Map<string, string>>()
  return [
    {
      method: 'GET',
      path: '/openapi.json',
      public: true,
      doc: { summary: 'This OpenAPI 3.1 document, generated from the field catalogue and the route table', kind: 'other' },
      async handler(event, ctx) {
        const prefix = mountPrefix(event)
        let texts = documents.get(ctx.platform)
        if (!texts) documents.set(ctx.platform, (texts = new Map()))
        let text = texts.get(prefix)
        if (text === undefined) {
          const { resources, presets } = ctx.platform
          text = JSON.stringify(toOpenApiDocument({ routes: routes(), resources, presets, serverUrl: prefix || '/' }))
          texts.set(prefix, text)
        }
        return send(event, text, 'application/json; charset=utf-8', 'no-cache')
      },
    },
    {
      method: 'GET',
      path: '/docs',
      public: true,
      doc: { summary: 'Interactive API reference (Swagger UI, served from local files)', kind: 'other', contentType: 'text/html' },
      async handler(event) {
        return send(event, docsPage(mountPrefix(event)), 'text/html; charset=utf-8', 'no-cache')
      },
    },
    ...assetFiles.map(assetRoute),
  ]
}

function assetRoute(file: AssetFile): Route {
  return {
    method: 'GET',
    path: `/docs/${file.name}`,
    public: true,
    doc: { summary: `A file of the API reference page (${file.name})`, kind: 'other', contentType: file.contentType.split(';')[0] },
    async handler(event) {
      if (!file.vendor) return send(event, assetContent(file), file.contentType, 'no-cache')
      // swagger-ui-dist's files change only with its version: cache them, revalidate by ETag.
      const etag = `"swagger-ui-dist-${assetVersion()}-${file.name}"`
      if (event.req.headers.get('if-none-match') === etag) {
        return new Response(null, { status: 304, headers: { etag, 'x-request-id': requestIdOf(event) } })
      }
      return send(event, assetContent(file), file.contentType, 'public, max-age=86400', { etag })
    },
  }
}

function send(event: H3Event, body: string | Uint8Array<ArrayBuffer>, contentType: string, cacheControl: string, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': contentType,
      'cache-control': cacheControl,
      'x-content-type-options': 'nosniff',
      'x-request-id': requestIdOf(event),
      ...headers,
    },
  })
}
