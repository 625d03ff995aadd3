import { BillingError, quoted } from '../errors.js'
import type { Item, Values } from '../fields/item.js'
import type { Resource } from '../fields/resource.js'
import type { RefCheck } from '../input/validate.js'
import type { Store } from '../ports/store.js'
import { callClasses, customerDefault } from '../fields/call-classes.js'
import { allocatedCarrier, sameCarrier } from '../presets/carrier-allocation.js'
import { accountCurrency } from '../money/money.js'

/** The `availability` name that closes a tariff to new holders (a shipped name of `availabilities`). */
export const WITHDRAWN = 'Withdrawn'

/** What "who may have a tariff" reads of the item given one (contract 17.7). */
export interface TariffHolder {
  readonly kind: string
  readonly customer: Item | null
  /** The number's type, for a number or a feature on one; undefined for anything else. */
  readonly numberType: string | null | undefined
  /**
   * The carrier whose records are the holder's calls, or null when none is known: the carrier a
   * number's `carrierCallAllocation` (else its customer's) names, since only that carrier's records
   * bill it (contract 17.1), else the number's `callCarrier`; a feature on a number, its number's;
   * anything else, the one its customer's allocation names.
   */
  readonly callCarrier: string | null
  /**
   * The carrier providing the holder, or null: a feature's `carrier`, else its number's
   * `lineCarrier`, else its service's `provider`; a number's `lineCarrier`; a service's
   * `provider`; a customer has none.
   */
  readonly lineCarrier: string | null
}

/** A tariff's restriction fields as stored. */
type TariffRow = Pick<Item, 'id'> & Values

/** A Text list field (`customerGroups`, `forNumberTypes`): names separated by commas or semicolons. */
export const listOf = (text: unknown): string[] =>
  typeof text === 'string' ? text.split(/[,;]/).map((s) => s.trim()).filter((s) => s !== '') : []

/** The `tariffClasses` name of a call class: `Bespoke 1` and `Bespoke 2` are both of the one `Bespoke` class. */
const classNameOf = (label: string): string => label.replace(/ \d$/, '')

/** The class names a `<class>Tariff` field prices; a `tariffClass` the presets add beyond them restricts no field. */
const fieldClasses: ReadonlySet<string> = new Set(callClasses.map((c) => classNameOf(c.label)))

/** The class name a `<class>Tariff` field (or a customer's `default…` one) prices, else null. */
function classOfField(field: string): string | null {
  const c = callClasses.find((k) => k.tariff === field || customerDefault(k.tariff) === field)
  return c ? classNameOf(c.label) : null
}

/**
 * Why `holder` may not be given `tariff` in `field`, as the tariff's field and the rule broken, or
 * null when it may. `customerID` (that customer only), `customerGroups` (customers in one of
 * them), `forNumberTypes` (numbers of those types and features on them), `currency` (customers of
 * it; a customer with no currency states none to differ), `availability` `Withdrawn` (nobody
 * new); a call tariff's `forCarriers` (billing-api.md: the carriers it applies to) refuses a holder
 * whose calls are known to come from another carrier, and a fixed fee tariff's
 * `wholesaleForCarrierIDs` an item known to be provided by another (a holder of no known carrier,
 * as a customer taking calls from every carrier, is refused by neither: contract 17.7 names who
 * may not have a tariff, and these only narrow it where the carrier says so); and a call tariff's `tariffClass` (billing-api.md: the class of calls it applies to): only
 * in the field of that class, where it would otherwise price calls of a class it is not for (a
 * class name the presets add, which no field prices, restricts none).
 */
export function refusal(tariff: TariffRow, holder: TariffHolder, field?: string): { field: string; rule: string } | null {
  if (tariff.availability === WITHDRAWN) return { field: 'availability', rule: 'it is withdrawn: nobody new may have it' }
  const tariffClass = tariff.tariffClass
  const fieldClass = field === undefined ? null : classOfField(field)
  if (typeof tariffClass === 'string' && fieldClasses.has(tariffClass) && fieldClass !== null && fieldClass !== tariffClass) {
    return { field: 'tariffClass', rule: `it is for ${quoted(tariffClass)} calls only, not ${quoted(fieldClass)}` }
  }
  const owner = tariff.customerID
  if (owner !== null && owner !== undefined && owner !== '' && String(owner) !== holder.customer?.id) {
    return { field: 'customerID', rule: `it is for customer ${owner} only` }
  }
  const groups = listOf(tariff.customerGroups)
  if (groups.length > 0) {
    const held = Array.isArray(holder.customer?.customerGroups) ? (holder.customer!.customerGroups as string[]) : []
    if (!held.some((g) => groups.includes(g))) return { field: 'customerGroups', rule: `it is for customers in ${groups.map(quoted).join(', ')} only` }
  }
  const types = listOf(tariff.forNumberTypes)
  if (types.length > 0 && (typeof holder.numberType !== 'string' || !types.includes(holder.numberType))) {
    return { field: 'forNumberTypes', rule: `it is for numbers of type ${types.map(quoted).join(', ')} only` }
  }
  const carriers = listOf(tariff.forCarriers)
  const calls = holder.callCarrier
  if (carriers.length > 0 && calls !== null && !carriers.some((c) => sameCarrier(c, calls))) {
    return { field: 'forCarriers', rule: `it is for calls from ${carriers.map(quoted).join(', ')} only` }
  }
  const providers = Array.isArray(tariff.wholesaleForCarrierIDs) ? (tariff.wholesaleForCarrierIDs as string[]) : []
  const provider = holder.lineCarrier
  if (providers.length > 0 && provider !== null && !providers.some((c) => sameCarrier(c, provider))) {
    return { field: 'wholesaleForCarrierIDs', rule: `it is for what ${providers.map(quoted).join(', ')} provide only` }
  }
  const currency = tariff.currency
  // A customer without a currency is billed in the default one (its documents print it, its payments must be in it).
  const theirs = holder.customer ? accountCurrency(holder.customer.currency as string | null) : null
  if (typeof currency === 'string' && currency !== '' && theirs !== null && theirs !== currency) {
    return { field: 'currency', rule: `it is for customers in ${currency} only` }
  }
  return null
}

/**
 * Refuses a write that gives an item a tariff it may not have (contract 17.7): only the tariff
 * names the write changes are checked, so items that already have a tariff keep it.
 */
export async function checkTariffHolders(
  store: Store,
  resource: Resource,
  checks: readonly RefCheck[],
  values: Values,
  current: Item | null,
  owner: Values,
): Promise<void> {
  const given = checks.filter((c) => current === null || current[c.field] !== c.value)
  if (given.length === 0) return
  const holder = await holderOf(store, resource, values, current, owner)
  for (const ref of ['tariffs', 'fixedFeeTariffs'] as const) {
    const wanted = given.filter((c) => c.ref === ref)
    if (wanted.length === 0) continue
    const names = [...new Set(wanted.map((c) => c.value))]
    const rows = await store.repository(ref).list({ where: [{ op: 'in', column: 'name', values: names }], limit: names.length + 1, storedOnly: true })
    for (const check of wanted) {
      const tariff = rows.find((r) => r.name === check.value)
      const no = tariff ? refusal(tariff, holder, check.field) : null
      if (!no) continue
      const kind = ref === 'tariffs' ? 'call tariff' : 'fixed fee tariff'
      throw new BillingError(
        'invalid_field',
        `Field "${check.field}" of ${resource.singular}: the ${kind} ${quoted(check.value)} may not be given here: ${no.rule} (its ${no.field})`,
        `Choose a ${kind} whose ${no.field} allows this ${resource.singular}.`,
        { presetsOf: resource.name },
      )
    }
  }
}

const idOf = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v))

const textOf = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null)

/** The customer, number type and carriers a write's item will have. */
async function holderOf(store: Store, resource: Resource, values: Values, current: Item | null, owner: Values): Promise<TariffHolder> {
  const pick = (name: string) => (name in values ? values[name] : name in owner ? owner[name] : current?.[name])
  if (resource.name === 'customers') {
    const customer = { ...(current ?? { id: '' }), ...values } as Item
    return { kind: 'customer', customer, numberType: undefined, callCarrier: allocatedCarrier({}, carrierFields(customer)), lineCarrier: null }
  }
  const numberID = resource.name === 'features' ? idOf(pick('numberID')) : null
  const number = numberID === null ? null : await store.repository('numbers').get(numberID)
  const customerID = idOf(pick('customerID')) ?? idOf(number?.customerID)
  const customer = customerID === null ? null : ((await store.repository('customers').get(customerID)) ?? null)
  const customerAllocation = carrierFields(customer)
  if (resource.name === 'numbers') {
    const callCarrier = allocatedCarrier({ carrierCallAllocation: textOf(pick('carrierCallAllocation')) }, customerAllocation) ?? textOf(pick('callCarrier'))
    return { kind: 'number', customer, numberType: (pick('numberType') as string | null) ?? null, callCarrier, lineCarrier: textOf(pick('lineCarrier')) }
  }
  const callCarrier = number ? (allocatedCarrier(carrierFields(number), customerAllocation) ?? textOf(number.callCarrier)) : allocatedCarrier({}, customerAllocation)
  const numberType = number ? ((number.numberType as string | null) ?? null) : undefined
  if (resource.name === 'services') return { kind: 'service', customer, numberType, callCarrier, lineCarrier: textOf(pick('provider')) }
  const own = textOf(pick('carrier')) ?? textOf(number?.lineCarrier)
  const serviceID = own === null ? idOf(pick('serviceID')) : null
  const service = serviceID === null ? null : await store.repository('services').get(serviceID)
  const lineCarrier = own ?? textOf(service?.provider)
  return { kind: resource.name, customer, numberType, callCarrier, lineCarrier }
}

const carrierFields = (item: Item | null): { carrierCallAllocation: string | null } => ({ carrierCallAllocation: textOf(item?.carrierCallAllocation) })
