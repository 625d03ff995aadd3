/** One email as the platform composes it; attachments carry their bytes or text. */
export interface MailMessage {
  readonly from: string
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly attachments: readonly { readonly filename: string; readonly contentType: string; readonly content: Uint8Array | string }[]
}

/** Sends invoice emails: over SMTP, or into `.eml` files where no server is configured (contract 14.2). */
export interface InvoiceMailer {
  /** Resolves once the server accepted the message (or the file is written), with its ID; rejects on refusal. */
  send(message: MailMessage): Promise<{ messageID: string }>
  /** Where messages go, for the start-up log ("smtp://host:port", "files in ./data/mail"). */
  readonly description: string
}
