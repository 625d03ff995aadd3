import type { DateOnly } from '../dates/date-only.js'
import type { Feature } from '../fields/entity.js'
import type { ResourceName } from '../fields/resource.js'
import type { LedgerRow } from '../ports/ledger.js'
import type { ResourceWrite, Store } from '../ports/store.js'
import type { StoredChargeHistory, TariffPricedScope } from '../ports/tariff-priced-features.js'
import type { Presets } from '../presets/presets.js'
import { billingInputs, type BillingInput } from './billing-inputs.js'
import { effectiveHistory, initialHistory, versionAt, type ChargeVersion } from './charge-history.js'
import { dueDateOf } from './feature-billing.js'
import { committedCountOf, featureCountOf, historyOf, serializeHistory } from './stored-feature.js'

/** Features priced a statement at a time: their rows, customers, parents and ledgers read together. */
const CHUNK = 500

/** The fields of a fixed fee detail that decide which features it prices, and at what. */
const detailFields = ['serviceCharge', 'startDate', 'endDate', 'featureTypes', 'numberTypes', 'serviceTypes', 'transactionTypes', 'fixedFeeTariffID']
/** The fields of a tariff's user that decide its tariff, or which of the tariff's rows match it. */
const holderFields: Partial<Record<ResourceName, readonly string[]>> = {
  customers: ['fixedFeeTariff'],
  numbers: ['fixedFeeTariff', 'numberType'],
  services: ['fixedFeeTariff', 'serviceType'],
  features: ['fixedFeeTariff', 'featureType', 'serviceTransactionType'],
}
const holderColumn = { customers: 'customerID', numbers: 'numberID', services: 'serviceID', features: 'id' } as const

/**
 * Contract 17.5 (charges take effect when they say, never a rewrite of history), for a change on
 * the tariff side: a fixed fee tariff prices its features' `tariffPriced` versions with its rows
 * as they are when a run bills, so a change of a detail, a tariff's parent or a feature's tariff
 * would price every period already charged again. Called in the write's transaction before it is
 * stored: each feature it may price again keeps, before its `dueDate` (the first day not yet
 * charged), the prices the tariff gave it until now, written into its charge history; from the
 * `dueDate` on the tariff prices it as before, changed. A feature with nothing charged yet, or
 * already frozen through its `dueDate`, is left as it is. An applyIncrease writes its rows
 * itself, keeping the old price for the days before it (`splitAt`), and does not come here.
 */
export async function freezeTariffPrices(store: Store, presets: Pick<Presets, 'featureDiscountSchemes'>, write: ResourceWrite): Promise<void> {
  const scope = await scopeOf(store, write)
  if (!scope) return
  const ids = await store.tariffPriced.featureIDs(scope)
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK)
    const features = await store.repository('features').listIn('id', chunk)
    const inputs = await billingInputs(store, presets, features)
    const ledgers = await store.ledger.engineRows(chunk)
    const rows: StoredChargeHistory[] = []
    for (const f of features) {
      const frozen = frozenHistory(f, inputs.get(f.id)!, ledgers.get(f.id) ?? [])
      if (frozen) rows.push({ id: f.id, chargeHistory: serializeHistory(frozen) })
    }
    await store.tariffPriced.writeHistories(rows)
  }
}

/** The features a write may price again, or null when it changes no fixed fee price. */
async function scopeOf(store: Store, { resource, before, values }: ResourceWrite): Promise<TariffPricedScope | null> {
  const changes = (fields: readonly string[]) => values !== null && fields.some((f) => f in values && values[f] !== before?.[f])
  if (resource === 'fixedFeeTariffDetails') {
    if (before && values && !changes(detailFields)) return null
    return { tariffs: await withChildren(store, [before?.fixedFeeTariffID, values?.fixedFeeTariffID]) }
  }
  if (resource === 'fixedFeeTariffs') {
    if (!before || (values && !changes(['parentFixedFeeTariff']))) return null
    return { tariffs: await withChildren(store, [before.id]) }
  }
  const fields = holderFields[resource]
  if (!fields || !before || !changes(fields)) return null
  return { of: { column: holderColumn[resource as keyof typeof holderColumn], id: before.id } }
}

/** The names of these tariffs (by ID) and of every tariff whose parent chain reaches one (contract 17.7). */
async function withChildren(store: Store, ids: readonly unknown[]): Promise<string[]> {
  const tariffs = await store.repository('fixedFeeTariffs').list({ where: [], limit: Number.MAX_SAFE_INTEGER })
  const reached = new Set(ids.filter((id) => id !== null && id !== undefined && id !== '').map(String))
  // Parents by ID; a chain stored with a loop stops when a pass reaches nothing new.
  for (let grew = true; grew; ) {
    grew = false
    for (const t of tariffs) {
      const parent = String(t.parentFixedFeeTariff ?? '').trim()
      if (reached.has(t.id) || parent === '' || !reached.has(parent)) continue
      reached.add(t.id)
      grew = true
    }
  }
  return tariffs.filter((t) => reached.has(t.id) && typeof t.name === 'string').map((t) => t.name as string)
}

/**
 * The feature's history with the tariff's prices of the days before its `dueDate` written in
 * (`input`: as the tariff prices it now), the versions from then on as stored; null when no
 * version the tariff prices is in force before that date (nothing charged yet, or done before).
 */
export function frozenHistory(f: Feature, input: BillingInput, ledger: readonly LedgerRow[]): ChargeVersion[] | null {
  const start = input.feature.startDate
  if (!input.byTariff || !start) return null
  const due: DateOnly | null = dueDateOf(input.feature, input.history, ledger)
  // Never changed: the tariff prices it from its start (`fixedFeeHistory`).
  const stored = f.chargeHistory ? historyOf(f) : initialHistory(start, null, featureCountOf(f), committedCountOf(f)).map((v) => ({ ...v, tariffPriced: true as const }))
  const versions = effectiveHistory(stored, start)
  if (!due || !versions.some((v) => v.tariffPriced && v.from < due)) return null
  const charged = effectiveHistory(input.history, start)
    .filter((v) => v.from < due)
    .map(({ tariffPriced: _tariff, ...v }) => v)
  const current = versionAt(versions, due)!
  // The version in force on the dueDate goes on from it; what marked its own start stays there.
  const { newLayout: _layout, olderThrough: _older, ...goesOn } = current
  const from = current.from === due ? current : { ...goesOn, from: due }
  return [...charged, from, ...versions.filter((v) => v.from > due)]
}
