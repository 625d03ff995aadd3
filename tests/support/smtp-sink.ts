import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/**
 * A real SMTP server on 127.0.0.1 for a suite (smtp-server), keeping each message it accepts as
 * mailparser reads it (after `delayMs`, a slow server). `refuse` makes it answer 451 to the next messages until set back.
 */
export async function startSmtpSink(options: { delayMs?: number } = {}) {
  const received: ParsedMail[] = []
  const state = { refuse: false, seen: 0 }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', async () => {
        state.seen++
        if (state.refuse) return callback(Object.assign(new Error('try again later'), { responseCode: 451 }))
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs))
        received.push(await simpleParser(Buffer.concat(chunks)))
        callback(null, `queued as Q${received.length}`)
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
