import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { promisify } from 'node:util'
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib'
import type { Middleware } from 'h3'
import { isStreamedAnswer } from '../csv-response.js'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Bodies below this many bytes are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024
const COMPRESSIBLE = /^(application\/(json|problem\+json)|text\/)/

/**
 * Compresses answers of at least COMPRESS_MIN_BYTES with brotli or gzip when the request's
 * `Accept-Encoding` takes one (brotli first). Brotli runs at quality 5: a large page compresses
 * to about what quality 11 gives, in a fraction of its time. Archives and documents (not text)
 * and bodies already encoded are left alone. A streamed answer (the reports',
 * csv-response.ts) is compressed as it streams: read whole first, a run's 30 MB journal
 * sat in memory and was compressed in one piece after its last line (bench/RESULTS.md, session 33).
 */
export function compression(): Middleware {
  return async (event, next) => {
    const response = (await next()) as Response
    const accept = event.req.headers.get('accept-encoding')
    if (!accept || !response.body || response.headers.has('content-encoding')) return response
    if (!COMPRESSIBLE.test(response.headers.get('content-type') ?? '')) return response
    const length = Number(response.headers.get('content-length') ?? NaN)
    if (Number.isFinite(length) && length < COMPRESS_MIN_BYTES) return response
    const encoding = chooseEncoding(accept)
    if (!encoding) return response
    const headers = new Headers(response.headers)
    headers.append('vary', 'Accept-Encoding')
    if (isStreamedAnswer(response)) {
      headers.set('content-encoding', encoding)
      return new Response(compressedStream(response.body, encoding), { status: response.status, headers })
    }
    const body = Buffer.from(await response.arrayBuffer())
    if (body.length < COMPRESS_MIN_BYTES) {
      return new Response(body, { status: response.status, headers })
    }
    const packed =
      encoding === 'br'
        ? await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
        : await gzipAsync(body)
    headers.set('content-encoding', encoding)
    headers.set('content-length', String(packed.length))
    return new Response(packed, { status: response.status, headers })
  }
}

/** `body` compressed as it is read; a failure or a cancel on either side ends both. */
function compressedStream(body: ReadableStream<Uint8Array>, encoding: 'br' | 'gzip'): ReadableStream<Uint8Array> {
  const packer = encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : createGzip()
  const source = Readable.fromWeb(body as NodeReadableStream<Uint8Array>)
  source.on('error', (error) => packer.destroy(error))
  packer.on('close', () => source.destroy())
  return Readable.toWeb(source.pipe(packer)) as ReadableStream<Uint8Array>
}

/** The coding to use: `br` or `gzip` when acceptable (q > 0, or `*`), brotli preferred at equal weight. */
export function chooseEncoding(header: string): 'br' | 'gzip' | null {
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase())
    if (!name) continue
    const q = params.find((p) => p.startsWith('q='))
    const weight = q ? Number(q.slice(2)) : 1
    weights.set(name, Number.isFinite(weight) ? weight : 0)
  }
  const of = (name: string) => weights.get(name) ?? weights.get('*') ?? 0
  const br = of('br')
  const gz = of('gzip')
  if (br <= 0 && gz <= 0) return null
  return br >= gz ? 'br' : 'gzip'
}
