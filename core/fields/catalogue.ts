import { billingRuns } from './billing-runs.js'
import { calls } from './calls.js'
import { customerContacts } from './customer-contacts.js'
import { customers } from './customers.js'
import { disasterRecoveryFiles } from './disaster-recovery-files.js'
import { features } from './features.js'
import { fixedFeeTariffDetails } from './fixed-fee-tariff-details.js'
import { fixedFeeTariffs } from './fixed-fee-tariffs.js'
import { invoices } from './invoices.js'
import { numbers } from './numbers.js'
import { services } from './services.js'
import { tariffDetails } from './tariff-details.js'
import { tariffs } from './tariffs.js'
import { transactions } from './transactions.js'
import { usageFiles } from './usage-files.js'
import { history } from './history.js'
import { events } from './events.js'
import { webhooks } from './webhooks.js'
import { webhookDeliveries } from './webhook-deliveries.js'
import { invoiceDeliveries } from './invoice-deliveries.js'
import { paymentLinks } from './payment-links.js'
import { creditNotes } from './credit-notes.js'
import { destinationTables } from './destination-tables.js'
import { destinations } from './destinations.js'
import { carrierBills, carrierBillLines } from './carrier-bills.js'
import { resourceNames, type Resource, type ResourceName } from './resource.js'

/** Every resource of the platform, by collection name: the one place fields are described. */
export const catalogue = {
  customers,
  numbers,
  services,
  features,
  tariffs,
  fixedFeeTariffs,
  customerContacts,
  tariffDetails,
  fixedFeeTariffDetails,
  transactions,
  billingRuns,
  invoices,
  calls,
  usageFiles,
  disasterRecoveryFiles,
  history,
  events,
  webhooks,
  webhookDeliveries,
  invoiceDeliveries,
  paymentLinks,
  creditNotes,
  destinationTables,
  destinations,
  carrierBills,
  carrierBillLines,
} as const satisfies Record<ResourceName, Resource>

export const resources: readonly Resource[] = Object.values(catalogue)

/** The catalogue as the store and the route table take it: every resource by name, in `resourceNames` order. */
export const resourcesByName: ReadonlyMap<ResourceName, Resource> = new Map(resourceNames.map((n) => [n, catalogue[n]]))
