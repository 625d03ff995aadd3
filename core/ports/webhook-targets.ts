/**
 * Where webhooks may point. A worker POSTs to whatever URL a webhook names, so a URL reaching
 * inside the network (the machine itself, private networks, the cloud's metadata service) is
 * refused unless the platform is configured to allow it.
 */
export interface WebhookTargets {
  /** Why `url` may not be a webhook's target (a sentence naming the address), or null when it may. */
  refusal(url: string): Promise<string | null>
}
