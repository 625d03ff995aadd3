import type { PaymentProvider } from '../presets/presets.js'

export interface PaymentLinkRequest {
  readonly provider: PaymentProvider
  readonly paymentLinkUUID: string
  readonly customerID: string
  readonly accountNumber: string | null
  /** The amount outstanding the link asks for, as decimal text with 2 places ("120.00"). */
  readonly amount: string
}

/** Creates a payment link at a provider; throws when the provider fails. */
export interface PaymentLinkProvider {
  createLink(request: PaymentLinkRequest): Promise<string>
}
