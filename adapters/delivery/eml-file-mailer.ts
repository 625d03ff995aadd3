import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import type { InvoiceMailer, MailMessage } from '../../core/ports/invoice-mailer.js'
import { toNodemailer } from './smtp-mailer.js'

/**
 * Without SMTP, each message is written as an `.eml` file under BILLING_MAIL_DIR (default
 * ./data/mail), so a first start sends nothing anywhere and loses nothing, and a person can open
 * what would have been sent. The file's name is the delivery's `messageID`.
 */
export class EmlFileMailer implements InvoiceMailer {
  private readonly transport: Transporter
  private made = false
  readonly description: string
  private count = 0

  constructor(private readonly dir: string) {
    this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
    this.description = `.eml files in ${resolve(dir)}`
  }

  async send(message: MailMessage): Promise<{ messageID: string }> {
    const info = (await this.transport.sendMail(toNodemailer(message))) as unknown as { message: Buffer; messageId: string }
    if (!this.made) {
      await mkdir(this.dir, { recursive: true })
      this.made = true
    }
    const id = info.messageId.replace(/[<>]/g, '').replace(/[^A-Za-z0-9@._-]/g, '_')
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${++this.count}-${id}.eml`
    // Written whole under a temporary name first would need a rename; a half-written file is
    // rewritten by the retry (the delivery is marked sent only after this resolves).
    await writeFile(join(this.dir, name), info.message)
    return { messageID: name }
  }
}
