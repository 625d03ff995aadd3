import { Agent, request } from 'node:http'

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** One request over a kept-alive connection: status, body text and elapsed milliseconds. */
export function timedGet(url: string, key?: string): Promise<{ status: number; text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const req = request(url, { agent, headers: key ? { authorization: `Bearer ${key}` } : {} }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - start }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Like timedGet, but fails unless the answer is 200. */
export async function timedGetOk(url: string, key?: string): Promise<{ text: string; ms: number }> {
  const r = await timedGet(url, key)
  if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}: ${r.text.slice(0, 300)}`)
  return r
}
