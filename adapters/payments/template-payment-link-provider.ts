import type { PaymentLinkProvider, PaymentLinkRequest } from '../../core/ports/payment-link-provider.js'

/**
 * Builds links from each provider's configured URL template. A template that does not give an
 * absolute http(s) URL counts as a provider failure. Embedders plug in real provider APIs by
 * implementing PaymentLinkProvider.
 */
export const templatePaymentLinkProvider: PaymentLinkProvider = {
  async createLink(request: PaymentLinkRequest): Promise<string> {
    const values: Record<string, string> = {
      paymentLinkUUID: request.paymentLinkUUID,
      customerID: request.customerID,
      accountNumber: request.accountNumber ?? '',
      amount: request.amount,
    }
    const url = request.provider.urlTemplate.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (!(name in values)) throw new Error(`unknown placeholder {${name}}`)
      return encodeURIComponent(values[name])
    })
    const parsed = new URL(url)
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`not an http(s) URL: ${url}`)
    return parsed.href
  },
}
