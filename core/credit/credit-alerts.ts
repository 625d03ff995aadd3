import type { Stamp } from '../dates/stamp.js'
import { mulRatio, parseMoney, type Money } from '../money/money.js'
import { creditAlertNames, type CreditAlertName } from '../presets/engine-lists.js'
import type { Store } from '../ports/store.js'
import { actOnCreditLimits, type CreditLimitActing, type PassedLimits } from './credit-limit-actions.js'
import type { CreditFigures, SpendMeasure } from '../ports/credit-control.js'

const above = (value: Money, limit: Money | null) => limit !== null && value > limit

/** The names a month's call charges raise (contract 17.7), apart from the limits of 10.6. */
export const spendAlertNames: readonly CreditAlertName[] = ['expectedSpend', 'numberExpectedSpend']

/**
 * The limits exceeded now, in the contract's order. With `ratio` null the month's calls were not
 * measured (a write that cannot change them): the spend alerts stay as stored.
 */
export function creditAlertsOf(f: CreditFigures, ratio: Money | null): CreditAlertName[] {
  const passed = (spend: Money, expected: Money | null) => expected !== null && above(spend, mulRatio(expected, ratio!, 10n ** 4n))
  const exceeded: Record<CreditAlertName, boolean> = {
    creditLimit: above(f.balance, f.creditLimit),
    creditLimitCalls: above(f.unbilledCalls, f.creditLimitCalls),
    creditLimitOverdue: above(f.overdueAmount, f.creditLimitOverdue),
    creditLimitUnsent: above(f.unsent, f.creditLimitUnsent),
    numberCreditLimit: f.numbers.some((n) => above(n.unbilledCalls, n.creditLimit)),
    expectedSpend: ratio === null ? f.stored.includes('expectedSpend') : passed(f.monthCalls, f.expectedSpend),
    numberExpectedSpend: ratio === null ? f.stored.includes('numberExpectedSpend') : f.numbers.some((n) => passed(n.monthCalls, n.expectedSpend)),
  }
  return creditAlertNames.filter((name) => exceeded[name])
}

/** The measure of the month `now` falls in, with the presets' `expectedSpendAlertRatio`. */
export function spendMeasure(expectedSpendAlertRatio: string, now: Stamp): SpendMeasure {
  const month = now.slice(0, 7)
  const [y, m] = month.split('-').map(Number)
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
  return { ratio: parseMoney(expectedSpendAlertRatio)!, month, from: `${month}-01T00:00:00.000Z` as Stamp, to: `${next}-01T00:00:00.000Z` as Stamp }
}

const utf8 = new TextDecoder()

/**
 * Refreshes under way, by the store (the transaction) they write in. An import's inserts run two
 * at a time, each measuring its customers once in: two refreshes in one transaction would each read
 * the alerts stored before either wrote, and both announce and act on the same passing. So a
 * refresh waits for the one before on its store; nothing it calls may refresh on that store again
 * (it would wait for itself).
 */
const refreshing = new WeakMap<Store, Promise<unknown>>()

/** How a refresh measures and acts (`refreshCreditAlerts`). */
interface RefreshOptions {
  readonly candidates?: boolean
  readonly expectedSpendAlertRatio?: string
  /** What acting on a newly passed limit needs: required, so no write that raises an alert can leave it unacted. */
  readonly act: CreditLimitActing
}

/**
 * Brings the customers' `creditAlerts` up to date after a write that can change them
 * (transactions, usage imports, billing runs, payments, limits changed): only those that changed
 * are written, and each customer with a limit alert it did not have before gets a
 * `customer.credit_alert` event and what its profile's `onCreditLimit` does (contract 15.2), in
 * the caller's transaction: an alert is new only once, so an action not taken with it would never
 * be taken. So is each number newly over its own limit, told by its mark (`overCreditLimit`, set
 * and cleared here only), though the customer's `numberCreditLimit` alert may stay raised. A
 * customer whose month's calls pass an expected spend gets one `customer.spend_alert` a calendar
 * month (contract 17.7), however often they pass it again.
 * Returns the customers with a new limit alert. With `candidates`, the caller has already left out
 * customers without any limit or alert. With `expectedSpendAlertRatio` (the presets'), the month's
 * calls are measured; a write that cannot change them leaves it out, and spend alerts stay as stored.
 *
 * Once per passing, however the refreshes meet: those of one transaction run one after another,
 * and those of others (Postgres) write the alerts and marks only as they read them, so the one that
 * finds them changed measures again, and announces nothing the other did.
 */
export function refreshCreditAlerts(
  store: Store,
  customerIDs: readonly string[],
  now: Stamp,
  options: RefreshOptions,
): Promise<string[]> {
  const before = refreshing.get(store) ?? Promise.resolve()
  const refresh = () => refreshInTurn(store, customerIDs, now, options)
  // After the one before, whether it failed or not (its failure is its caller's).
  const done = before.then(refresh, refresh)
  refreshing.set(store, done.catch(() => undefined))
  return done
}

async function refreshInTurn(store: Store, customerIDs: readonly string[], now: Stamp, options: RefreshOptions): Promise<string[]> {
  // A customer with no limit anywhere and no alert stored keeps none: not measured.
  let ids = options.candidates ? customerIDs : await store.creditControl.withCreditLimits(customerIDs)
  const spend = options.expectedSpendAlertRatio === undefined ? null : spendMeasure(options.expectedSpendAlertRatio, now)
  const raised: string[] = []
  // Those another transaction changed since they were read are measured again.
  while (ids.length > 0) {
    const measured = await measure(store, ids, spend)
    // An alert that appears is announced (contract 10.6), with the customer as it now reads.
    await announce(store, measured.raised, 'customer.credit_alert', now)
    await announce(store, measured.spent, 'customer.spend_alert', now)
    if (measured.passed.length) await actOnCreditLimits(options.act, store, measured.passed)
    raised.push(...measured.raised)
    ids = measured.changed
  }
  return raised
}

/** One measure of the customers: what it wrote, and the customers found changed meanwhile (`changed`), left as they are. */
async function measure(store: Store, ids: readonly string[], spend: SpendMeasure | null) {
  const figures = await store.creditControl.creditFigures(ids, spend)
  const raised: string[] = []
  const spent: string[] = []
  const changed: string[] = []
  const measured: { id: string; fresh: CreditAlertName[]; over: readonly string[]; newly: readonly string[] }[] = []
  const marks = { over: [] as string[], under: [] as string[] }
  for (const [id, f] of figures) {
    const alerts = creditAlertsOf(f, spend?.ratio ?? null)
    const spendMonth = spend !== null && f.spendAlertMonth !== spend.month && alerts.some((a) => spendAlertNames.includes(a)) ? spend.month : undefined
    const same = !spendMonth && alerts.length === f.stored.length && alerts.every((a, i) => a === f.stored[i])
    if (!same && !(await store.creditControl.setCreditAlerts(id, alerts, spendMonth, { alerts: f.stored, spendAlertMonth: f.spendAlertMonth }))) {
      changed.push(id)
      continue
    }
    if (spendMonth) spent.push(id)
    // Each number passes its own limit on its own (contract 15.2): the customer's numberCreditLimit
    // alert stays raised while any one is over, so a number is new over its limit by its own mark.
    const over = f.numbers.filter((n) => above(n.unbilledCalls, n.creditLimit))
    const newly = over.filter((n) => !n.overCreditLimit).map((n) => n.id)
    marks.over.push(...newly)
    marks.under.push(...f.numbers.filter((n) => n.overCreditLimit && !over.includes(n)).map((n) => n.id))
    const fresh = same ? [] : alerts.filter((a) => !f.stored.includes(a) && !spendAlertNames.includes(a))
    if (fresh.length) raised.push(id)
    measured.push({ id, fresh, over: over.map((n) => n.id), newly })
  }
  // A number another transaction marked meanwhile was acted on there.
  const marked = new Set(await store.creditControl.markNumbersOver(marks.over, true))
  await store.creditControl.markNumbersOver(marks.under, false)
  const passed: PassedLimits[] = []
  for (const { id, fresh, over, newly } of measured) {
    // An alert new now acts for every number over (a mark another customer's measure left, on a
    // number moved since, counts for nothing here).
    const numbersOver = fresh.includes('numberCreditLimit') ? over : newly.filter((n) => marked.has(n))
    if (fresh.length || numbersOver.length) passed.push({ customerID: id, alerts: fresh, numbersOver })
  }
  return { raised, spent, passed, changed }
}

/** One event of `type` for each customer, with the customer as it now reads. */
async function announce(store: Store, customerIDs: readonly string[], type: string, now: Stamp): Promise<void> {
  // A run's batch may raise hundreds: read a chunk of customers a query, not one each.
  for (let i = 0; i < customerIDs.length; i += 500) {
    const ids = customerIDs.slice(i, i + 500)
    const rows = await store.listJson.list('customers', { where: [{ op: 'in', column: 'id', values: ids }], limit: ids.length })
    await store.changes.append([], rows.map((row) => ({ type, data: utf8.decode(row.json), createdStamp: now })))
  }
}

/** The customer fields that say whether a customer can have an alert at all (besides its numbers' limits). */
export type CreditLimitsCustomer = {
  readonly expectedSpend: Money | null
  readonly creditLimit: Money | null
  readonly creditLimitCalls: Money | null
  readonly creditLimitOverdue: Money | null
  readonly creditLimitUnsent: Money | null
  readonly creditAlerts: readonly string[] | null
}

export const hasCreditLimits = (c: CreditLimitsCustomer): boolean =>
  c.expectedSpend !== null || c.creditLimit !== null || c.creditLimitCalls !== null || c.creditLimitOverdue !== null || c.creditLimitUnsent !== null || (c.creditAlerts?.length ?? 0) > 0

/**
 * After a write of a customer's recurring charges (a charge change, an annual increase, the rebill
 * of a drop, reinstate or final bill), in its transaction: they move the balance, which only the
 * customer's own limits measure (calls are untouched), so a customer with none and no alert stored
 * is not read again. Called once per customer and operation, after all its rows are written.
 */
export async function refreshAfterCharges(store: Store, customer: CreditLimitsCustomer & { readonly id: string }, now: Stamp, act: CreditLimitActing): Promise<void> {
  if (hasCreditLimits(customer)) await refreshCreditAlerts(store, [customer.id], now, { candidates: true, act })
}
