import type { H3Event } from 'h3'
import { requestIdOf } from './respond.js'

/**
 * Answers of the books' reports (carrier bill reconciliation, margin, commissions, journals,
 * contract 16-17): JSON or CSV by `Accept`, written a piece at a time as the pieces come, so an
 * answer of a million lines never sits in memory whole. Their cells are written by
 * core/documents/csv-cells.ts (text neutralised for spreadsheets, numbers as they are).
 */
export function streamedAnswer(event: H3Event, csv: boolean, pieces: AsyncGenerator<string>): Response {
  const response = new Response(streamOf(pieces), {
    status: 200,
    headers: { 'content-type': csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8', 'x-request-id': requestIdOf(event) },
  })
  streamed.add(response)
  return response
}

const streamed = new WeakSet<Response>()

/** An answer written a piece at a time (`streamedAnswer`): compressed as it streams, never read whole first (middleware/compression.ts). */
export const isStreamedAnswer = (response: Response): boolean => streamed.has(response)

export function streamOf(pieces: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    async pull(controller) {
      const next = await pieces.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    async cancel() {
      await pieces.return(undefined)
    },
  })
}

/** Accept names text/csv above application/json. */
export function wantsCsv(event: H3Event): boolean {
  const accept = event.req.headers.get('accept') ?? ''
  const weight = (type: string) => {
    for (const part of accept.split(',')) {
      const [name, ...params] = part.trim().split(';')
      if (name.trim().toLowerCase() !== type) continue
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return q ? Number(q.slice(2)) : 1
    }
    return 0
  }
  return weight('text/csv') > weight('application/json')
}
