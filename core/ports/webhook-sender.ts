/** One signed POST of an event to a webhook (the Standard Webhooks scheme). */
export interface WebhookMessage {
  readonly url: string
  readonly secret: string
  /** `Webhook-Id`: the event's ID, the same on every retry. */
  readonly id: string
  /** `Webhook-Timestamp`: seconds since the epoch. */
  readonly timestamp: number
  readonly body: string
}

/** What an attempt got: the HTTP status (null: no answer), or why it failed. */
export interface WebhookResponse {
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
}

/** Sends a webhook message; never throws (a failure is a response with an error). */
export interface WebhookSender {
  send(message: WebhookMessage): Promise<WebhookResponse>
}
