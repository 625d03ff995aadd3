import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { BASE_PATH } from './route.js'

/**
 * The interactive API reference: Swagger UI from the `swagger-ui-dist` package, served from
 * local files (no CDN), on a page of our own that points it at the generated document.
 */
export const DOCS_PATH = `${BASE_PATH}/docs`
export const OPENAPI_PATH = `${BASE_PATH}/openapi.json`

/** A file the page loads: what it is called below DOCS_PATH, and its media type. */
export interface AssetFile {
  readonly name: string
  readonly contentType: string
  /** From swagger-ui-dist (cached for a day), or written here (revalidated on every load). */
  readonly vendor: boolean
}

export const assetFiles: readonly AssetFile[] = [
  { name: 'docs.js', contentType: 'text/javascript; charset=utf-8', vendor: false },
  { name: 'swagger-ui.css', contentType: 'text/css; charset=utf-8', vendor: true },
  { name: 'swagger-ui-bundle.js', contentType: 'text/javascript; charset=utf-8', vendor: true },
  { name: 'favicon-32x32.png', contentType: 'image/png', vendor: true },
  { name: 'favicon-16x16.png', contentType: 'image/png', vendor: true },
]

/**
 * The page itself: no inline script, every asset from this server, under the prefix the app is
 * mounted at (`/billing` when mounted there; empty when not). docs.js reads the document's URL
 * from the page, so the one static script serves every mount point.
 */
export const docsPage = (prefix: string): string => `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Telecom billing API reference</title>
    <link rel="stylesheet" href="${prefix}${DOCS_PATH}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${prefix}${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="${prefix}${DOCS_PATH}/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui" data-openapi="${prefix}${OPENAPI_PATH}"></div>
    <script src="${prefix}${DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${prefix}${DOCS_PATH}/docs.js"></script>
  </body>
</html>
`

/** Starts Swagger UI on the document; `validatorUrl: null` keeps it from calling out. */
const initializer = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: document.getElementById('swagger-ui').getAttribute('data-openapi'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
    displayRequestDuration: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
  })
})
`

const vendorDir = (): string => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
let vendorVersion: string | undefined

/** The version of swagger-ui-dist, for ETags of its files. */
export function assetVersion(): string {
  vendorVersion ??= (JSON.parse(readFileSync(join(vendorDir(), 'package.json'), 'utf8')) as { version: string }).version
  return vendorVersion
}

const contents = new Map<string, Uint8Array<ArrayBuffer>>()

/** The bytes of an asset, read once and kept. */
export function assetContent(file: AssetFile): Uint8Array<ArrayBuffer> {
  let bytes = contents.get(file.name)
  if (!bytes) {
    bytes = file.vendor ? new Uint8Array(readFileSync(join(vendorDir(), file.name))) : new TextEncoder().encode(initializer)
    contents.set(file.name, bytes)
  }
  return bytes
}
