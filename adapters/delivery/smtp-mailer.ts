import nodemailer, { type Transporter } from 'nodemailer'
import type { InvoiceMailer, MailMessage } from '../../core/ports/invoice-mailer.js'

/** `smtp://` or `smtps://` with a host: BILLING_SMTP_URL is checked before anything starts (contract 13). */
export function checkSmtpUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    // Not repeated: it may hold a password.
    throw new Error('BILLING_SMTP_URL is not a valid URL (smtp://user:password@host:587 or smtps://host:465)')
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new Error(`BILLING_SMTP_URL must start with smtp:// or smtps:// (got "${parsed.protocol}")`)
  if (!parsed.hostname) throw new Error('BILLING_SMTP_URL names no host (smtp://user:password@host:587)')
  return url
}

/** Nodemailer's message from ours. */
export const toNodemailer = (m: MailMessage) => ({
  from: m.from,
  to: m.to,
  subject: m.subject,
  text: m.text,
  attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: typeof a.content === 'string' ? a.content : Buffer.from(a.content) })),
})

/**
 * Invoice emails over SMTP (BILLING_SMTP_URL, credentials in the URL), by nodemailer. The
 * delivery's `messageID` is the ID the server queued it under when it says one, else the
 * message's own Message-ID.
 */
export class SmtpMailer implements InvoiceMailer {
  private readonly transport: Transporter
  readonly description: string

  constructor(url: string, options: { timeoutMs?: number } = {}) {
    const timeout = options.timeoutMs ?? 30_000
    this.transport = nodemailer.createTransport(url, { connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout } as never)
    const parsed = new URL(url)
    this.description = `${parsed.protocol}//${parsed.host}`
  }

  async send(message: MailMessage): Promise<{ messageID: string }> {
    const info = await this.transport.sendMail(toNodemailer(message))
    const queued = /queued as ([^\s]+)/i.exec(String(info.response ?? ''))
    return { messageID: queued?.[1] ?? info.messageId }
  }
}
