import type { InputOf, PatchOf, ShownOf } from '../../core/fields/entity.js'

/**
 * The library's item and body types by name, each derived from the field catalogue
 * (`core/fields/`): an item is what `get`, `list` and actions answer (money as exact `Money`,
 * dates as `YYYY-MM-DD` strings), an input what `create` takes (wire form: money as a number or
 * a decimal string) and an update what `update` takes (null clears). A misspelt field, a value
 * of the wrong type or a read-only field fails to compile.
 */

export type Customer = ShownOf<'customers'>
export type CustomerInput = InputOf<'customers'>
export type CustomerUpdate = PatchOf<'customers'>

export type TelephoneNumber = ShownOf<'numbers'>
export type TelephoneNumberInput = InputOf<'numbers'>
export type TelephoneNumberUpdate = PatchOf<'numbers'>

export type Service = ShownOf<'services'>
export type ServiceInput = InputOf<'services'>
export type ServiceUpdate = PatchOf<'services'>

export type Feature = ShownOf<'features'>
export type FeatureInput = InputOf<'features'>
export type FeatureUpdate = PatchOf<'features'>

export type Contact = ShownOf<'customerContacts'>
export type ContactInput = InputOf<'customerContacts'>
export type ContactUpdate = PatchOf<'customerContacts'>

export type CallTariff = ShownOf<'tariffs'>
export type CallTariffInput = InputOf<'tariffs'>
export type CallTariffUpdate = PatchOf<'tariffs'>
export type CallTariffDetail = ShownOf<'tariffDetails'>
export type CallTariffDetailInput = InputOf<'tariffDetails'>

export type FixedFeeTariff = ShownOf<'fixedFeeTariffs'>
export type FixedFeeTariffInput = InputOf<'fixedFeeTariffs'>
export type FixedFeeTariffUpdate = PatchOf<'fixedFeeTariffs'>
export type FixedFeeTariffDetail = ShownOf<'fixedFeeTariffDetails'>
export type FixedFeeTariffDetailInput = InputOf<'fixedFeeTariffDetails'>

export type Transaction = ShownOf<'transactions'>
export type TransactionInput = InputOf<'transactions'>

export type BillingRun = ShownOf<'billingRuns'>
export type BillingRunInput = InputOf<'billingRuns'>
export type BillingRunUpdate = PatchOf<'billingRuns'>

export type Invoice = ShownOf<'invoices'>
export type CreditNote = ShownOf<'creditNotes'>
export type Call = ShownOf<'calls'>
export type UsageFile = ShownOf<'usageFiles'>
export type HistoryEntry = ShownOf<'history'>
export type Webhook = ShownOf<'webhooks'>
export type WebhookInput = InputOf<'webhooks'>
export type WebhookDelivery = ShownOf<'webhookDeliveries'>

export type DestinationTable = ShownOf<'destinationTables'>
export type DestinationTableInput = InputOf<'destinationTables'>
export type Destination = ShownOf<'destinations'>
export type DestinationInput = InputOf<'destinations'>
export type CarrierBill = ShownOf<'carrierBills'>
export type DisasterRecoveryFile = ShownOf<'disasterRecoveryFiles'>
