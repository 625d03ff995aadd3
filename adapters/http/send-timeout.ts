import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/** A socket with an answer waiting to be sent: how much there was when it last moved, and when. */
interface Waiting {
  mark: number
  since: number
}

/**
 * Less than this taken in a send timeout is no progress: a kernel short of memory takes a
 * non-reading client's data a few bytes at a time, which would otherwise look like a reader.
 */
const MIN_PROGRESS_BYTES = 16 * 1024

/**
 * Destroys the sockets whose answer the client has taken none of for `ms`: a client that never
 * reads would otherwise hold its answer in the server's memory for as long as it keeps the
 * connection (60 such clients of an 8 MB page took the server from 183 to 693 MB). Progress
 * counts: a slow reader is not cut off while its answer keeps moving (16 KiB a timeout at least).
 *
 * One timer checks every socket at a quarter of `ms`, as deadline.ts does for requests: a
 * timer per write would cost every answer. "Pending" is what node holds (writableLength) plus
 * what libuv has not yet handed to the kernel of the write in flight (writeQueueSize), so a
 * single large write that the client reads slowly still shows progress.
 */
export function watchSends(server: Server, ms: number): void {
  const sockets = new Map<Socket, Waiting>()
  server.on('connection', (socket: Socket) => {
    sockets.set(socket, { mark: 0, since: 0 })
    socket.once('close', () => sockets.delete(socket))
  })
  const timer = setInterval(() => {
    const now = performance.now()
    for (const [socket, waiting] of sockets) {
      const pending = pendingBytes(socket)
      if (pending === 0) waiting.mark = 0
      // A new answer (more to send than before), or the last one moved on enough.
      else if (pending > waiting.mark || waiting.mark - pending >= MIN_PROGRESS_BYTES) [waiting.mark, waiting.since] = [pending, now]
      // A reset, not a close: the kernel drops what it still holds for the client instead of
      // keeping it until the client reads or the connection times out.
      else if (now - waiting.since >= ms) socket.resetAndDestroy()
    }
  }, Math.max(10, Math.floor(ms / 4)))
  timer.unref()
  server.once('close', () => clearInterval(timer))
}

function pendingBytes(socket: Socket): number {
  const handle = (socket as Socket & { _handle?: { writeQueueSize?: number } | null })._handle
  return socket.writableLength + (handle?.writeQueueSize ?? 0)
}
