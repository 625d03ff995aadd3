import type { Service, TelephoneNumber } from '../fields/entity.js'
import type { Store } from '../ports/store.js'
import type { Presets } from '../presets/presets.js'
import type { BillingFeature } from './billing-feature.js'
import { instalmentsOf } from './instalments.js'
import type { ChargeHistory } from './charge-history.js'
import { applicableTariff, fixedFeeHistory, priceOn, withTariffPrices, type FeatureTypes, type FixedFeeTariffs, type TariffRows } from './fixed-fee-pricing.js'
import { withParentRows } from './parent-fixed-fee-tariffs.js'
import type { RunCustomer, RunFeature } from '../ports/run-fields.js'
import { committedCountOf, featureCountOf, historyOf, toBillingFeature } from './stored-feature.js'

/** A feature as the billing math sees it: its terms and its charge history. */
export interface BillingInput {
  readonly feature: BillingFeature
  readonly history: ChargeHistory
  /** The fixed fee tariff priced `history` (its `tariffPriced` versions, or all of it when it had none stored). */
  readonly byTariff?: true
}

/**
 * Every fixed fee tariff's price rows, with those its ancestors lend (`withParentRows`), by
 * tariff name (small tables, read once per batch).
 */
export async function loadFixedFeeTariffs(store: Store): Promise<FixedFeeTariffs> {
  const tariffs = await store.repository('fixedFeeTariffs').list({ where: [], limit: Number.MAX_SAFE_INTEGER })
  const rows = await store.repository('fixedFeeTariffDetails').listIn('fixedFeeTariffID', tariffs.map((t) => t.id))
  return withParentRows(tariffs, rows)
}

/** The numbers and services features hang on, by ID. */
interface Parents {
  readonly numbers: ReadonlyMap<string, TelephoneNumber>
  readonly services: ReadonlyMap<string, Service>
}

/**
 * Billing inputs of features, loading what their prices depend on in a few queries: their
 * customers (unless given), the numbers and services they hang on, and the fixed fee tariffs.
 * A feature with no charge of its own takes its prices from the fixed fee tariff that applies.
 */
export async function billingInputs(
  store: Store,
  presets: Pick<Presets, 'featureDiscountSchemes'>,
  features: readonly RunFeature[],
  customers?: ReadonlyMap<string, RunCustomer>,
): Promise<Map<string, BillingInput>> {
  const out = new Map<string, BillingInput>()
  if (features.length === 0) return out
  const byCustomer = customers ?? new Map((await store.repository('customers').listIn('id', unique(features.map((f) => f.customerID)))).map((c) => [c.id, c]))
  // A feature in instalments has its recurring price; it may still take its connection charge from a tariff.
  const needsPrice = features.filter((f) => (f.serviceCharge == null && instalmentsOf(f) === null) || f.connectionCharge == null)
  const tariffs = needsPrice.length ? await loadFixedFeeTariffs(store) : new Map<string, TariffRows>()
  const idsOf = (column: 'numberID' | 'serviceID') => unique(needsPrice.map((f) => f[column]))
  const numbers = tariffs.size ? idsOf('numberID') : []
  const services = tariffs.size ? idsOf('serviceID') : []
  const parents: Parents = {
    numbers: byID(numbers.length ? await store.repository('numbers').listIn('id', numbers) : []),
    services: byID(services.length ? await store.repository('services').listIn('id', services) : []),
  }
  for (const f of features) {
    const customer = (f.customerID && byCustomer.get(f.customerID)) || null
    out.set(f.id, priced(toBillingFeature(f, customer, presets.featureDiscountSchemes), f, customer, parents, tariffs))
  }
  return out
}

function priced(feature: BillingFeature, f: RunFeature, customer: RunCustomer | null, parents: Parents, tariffs: FixedFeeTariffs): BillingInput {
  const history = historyOf(f)
  const number = (f.numberID && parents.numbers.get(f.numberID)) || null
  const service = (f.serviceID && parents.services.get(f.serviceID)) || null
  const name = tariffs.size ? applicableTariff(f, number ?? service, customer) : null
  const rows = name ? tariffs.get(name) : undefined
  const start = feature.startDate
  if (!rows?.length || !start) return { feature, history }
  const types: FeatureTypes = {
    featureType: f.featureType,
    numberType: number?.numberType ?? null,
    serviceType: service?.serviceType ?? null,
    transactionType: f.serviceTransactionType ?? 'Recurring Charge',
  }
  // The connection charge is priced as its own transaction type: a row for `Connection Charge` alone prices it.
  const connection: FeatureTypes = { ...types, transactionType: f.connectionTransactionType ?? 'Connection Charge' }
  const withConnection = feature.connectionCharge === null ? { ...feature, connectionCharge: priceOn(rows, connection, start)?.connectionCharge ?? null } : feature
  if (f.serviceCharge != null || feature.instalments !== null) return { feature: withConnection, history }
  return {
    feature: withConnection,
    history: f.chargeHistory ? withTariffPrices(history, rows, types, start) : fixedFeeHistory(rows, types, start, featureCountOf(f), committedCountOf(f)),
    byTariff: true,
  }
}

const byID = <T extends { readonly id: string }>(rows: readonly T[]) => new Map(rows.map((r) => [r.id, r]))

/** The distinct values, nulls left out. */
const unique = <T>(xs: readonly (T | null)[]): T[] => [...new Set(xs.filter((x): x is T => x !== null))]
