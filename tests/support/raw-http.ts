import { connect, type Socket } from 'node:net'

/** A client on a raw socket, to be as slow, as silent or as deaf as a hostile one. */
export interface RawClient {
  readonly socket: Socket
  /** Everything the server sent so far, as latin1 text. */
  received(): string
  /** The HTTP status lines among it: more than one for one request is a second answer. */
  statuses(): number[]
  /** Settles when the socket closes (either side, or reset), with whether any byte came. */
  readonly closed: Promise<{ gotData: boolean }>
  /** Settles with the text so far once it holds a whole answer's head (or the socket closed). */
  answered(): Promise<string>
  /** Writes and waits for the socket to take it (backpressure); false once the socket is gone. */
  send(data: string | Uint8Array): Promise<boolean>
}

/** Opens a socket to 127.0.0.1:`port`; `read: false` never reads what the server sends. */
export function rawClient(port: number, options: { read?: boolean } = {}): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    const waiters: (() => void)[] = []
    let isClosed = false
    const wake = () => waiters.splice(0).forEach((w) => w())
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1')
      wake()
    })
    // Reset by the server (a send timeout) is one of the ways it closes.
    socket.on('error', () => {})
    const closed = new Promise<{ gotData: boolean }>((r) =>
      socket.once('close', () => {
        isClosed = true
        wake()
        r({ gotData: text.length > 0 })
      }),
    )
    socket.once('connect', () => {
      socket.off('error', reject)
      if (options.read === false) socket.pause()
      resolve({
        socket,
        received: () => text,
        statuses: () => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1])),
        closed,
        async answered() {
          while (!isClosed && !/\r\n\r\n/.test(text)) await new Promise<void>((w) => waiters.push(w))
          return text
        },
        send: (data) =>
          new Promise<boolean>((done) => {
            if (socket.destroyed || !socket.writable) return done(false)
            socket.write(data, (error) => done(!error))
          }),
      })
    })
    socket.once('error', reject)
  })
}

/** A request's head for a raw socket. */
export function requestHead(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([k, v]) => `${k}: ${v}`)
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`
}

/** Waits until `check` holds, polling every 50 ms; fails with `what` after `ms` (a guard against a hang, not a speed limit). */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const until = performance.now() + ms
  while (!(await check())) {
    if (performance.now() > until) throw new Error(`never happened: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * Whether the kernel still has the client's connection established (Linux, /proc/net/tcp). A
 * client that never reads does not see the server's close or reset on its socket (nothing reads
 * it), but its kernel does: the connection leaves ESTABLISHED.
 */
export async function stillEstablished(client: RawClient): Promise<boolean> {
  const { readFile } = await import('node:fs/promises')
  const local = client.socket.localPort
  const remote = client.socket.remotePort
  if (local === undefined || remote === undefined) return false
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0')
  const text = await readFile('/proc/net/tcp', 'utf8')
  return text.split('\n').some((line) => {
    const cols = line.trim().split(/\s+/)
    return cols[1]?.endsWith(`:${hex(local)}`) && cols[2]?.endsWith(`:${hex(remote)}`) && cols[3] === '01'
  })
}

/**
 * Bytes the kernel holds to send to `client` on the server's side of its connection (the send
 * queue of the server's socket, in any state: established, or closing with data still queued).
 */
export async function queuedToClient(client: RawClient): Promise<number> {
  const { readFile } = await import('node:fs/promises')
  const local = client.socket.localPort
  const remote = client.socket.remotePort
  if (local === undefined || remote === undefined) return 0
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0')
  const text = await readFile('/proc/net/tcp', 'utf8')
  let queued = 0
  for (const line of text.split('\n')) {
    const cols = line.trim().split(/\s+/)
    if (cols[1]?.endsWith(`:${hex(remote)}`) && cols[2]?.endsWith(`:${hex(local)}`)) queued += parseInt(cols[4]?.split(':')[0] ?? '0', 16)
  }
  return queued
}
