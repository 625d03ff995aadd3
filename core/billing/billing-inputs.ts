import type { DateOnly } from '../dates/date-only.js'
import type { Item } from '../fields/item.js'
import type { Money } from '../money/money.js'
import type { Store } from '../ports/store.js'
import type { BillingFeature } from './billing-feature.js'
import type { ChargeHistory } from './charge-history.js'
import { applicableTariff, fixedFeeHistory, priceOn, type FeatureTypes, type FixedFeeTariffs } from './fixed-fee-pricing.js'
import { featureCountOf, historyOf, toBillingFeature } from './stored-feature.js'

/** A feature as the billing math sees it: its terms and its charge history. */
export interface BillingInput {
  readonly feature: BillingFeature
  readonly history: ChargeHistory
}

/** Every fixed fee tariff's price rows, by tariff name (small tables, read once per batch). */
export async function loadFixedFeeTariffs(store: Store): Promise<FixedFeeTariffs> {
  const tariffs = await store.repository('fixedFeeTariffs').list({ where: [], limit: Number.MAX_SAFE_INTEGER })
  const rows = await store.repository('fixedFeeTariffDetails').listIn('fixedFeeTariffID', tariffs.map((t) => t.id))
  const byName = new Map<string, Item[]>()
  for (const t of tariffs) byName.set(t.name as string, rows.filter((r) => r.fixedFeeTariffID === t.id))
  return byName
}

/**
 * Billing inputs of features, loading what their prices depend on in a few queries: their
 * customers (unless given), the numbers and services they hang on, and the fixed fee tariffs.
 * A feature with no charge of its own takes its prices from the fixed fee tariff that applies.
 */
export async function billingInputs(store: Store, features: readonly Item[], customers?: ReadonlyMap<string, Item>): Promise<Map<string, BillingInput>> {
  const out = new Map<string, BillingInput>()
  if (features.length === 0) return out
  const byCustomer = customers ?? new Map((await store.repository('customers').listIn('id', unique(features.map((f) => f.customerID as string)))).map((c) => [c.id, c]))
  const needsPrice = features.filter((f) => f.serviceCharge == null || f.connectionCharge == null)
  const tariffs = needsPrice.length ? await loadFixedFeeTariffs(store) : new Map<string, Item[]>()
  const parents = new Map<string, Item>()
  if (tariffs.size) {
    for (const [level, column] of [
      ['numbers', 'numberID'],
      ['services', 'serviceID'],
    ] as const) {
      const ids = unique(needsPrice.map((f) => f[column] as string | null).filter((x): x is string => !!x))
      for (const p of ids.length ? await store.repository(level).listIn('id', ids) : []) parents.set(`${level}:${p.id}`, p)
    }
  }
  for (const f of features) {
    const customer = byCustomer.get(f.customerID as string) ?? null
    out.set(f.id, priced(f, customer, parents, tariffs))
  }
  return out
}

function priced(f: Item, customer: Item | null, parents: Map<string, Item>, tariffs: FixedFeeTariffs): BillingInput {
  const feature = toBillingFeature(f, customer)
  const history = historyOf(f)
  const parent = (f.numberID && parents.get(`numbers:${f.numberID}`)) || (f.serviceID && parents.get(`services:${f.serviceID}`)) || null
  const name = tariffs.size ? applicableTariff(f, parent, customer) : null
  const rows = name ? tariffs.get(name) : undefined
  if (!rows?.length || !feature.startDate) return { feature, history }
  const types: FeatureTypes = {
    featureType: (f.featureType as string | null) ?? null,
    numberType: (parent?.numberType as string | null) ?? null,
    serviceType: (parent?.serviceType as string | null) ?? null,
    transactionType: (f.serviceTransactionType as string | null) ?? 'Recurring Charge',
  }
  const start = feature.startDate as DateOnly
  return {
    feature:
      feature.connectionCharge === null
        ? { ...feature, connectionCharge: (priceOn(rows, types, start)?.connectionCharge as Money | null | undefined) ?? null }
        : feature,
    history: f.serviceCharge == null && !f.chargeHistory ? fixedFeeHistory(rows, types, start, featureCountOf(f)) : history,
  }
}

const unique = <T>(xs: T[]) => [...new Set(xs)]
