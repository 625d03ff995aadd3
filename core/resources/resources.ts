import { addDays } from '../dates/date-only.js'
import { notFound } from '../errors.js'
import type { Item, Values } from '../fields/item.js'
import type { Field } from '../fields/field.js'
import type { Entity } from '../fields/entity.js'
import type { Resource, ResourceName } from '../fields/resource.js'
import type { InputValidator } from '../input/validate.js'
import type { Clock } from '../ports/clock.js'
import type { ListQuery } from '../ports/resource-repository.js'
import type { WireItem } from '../ports/list-json.js'
import type { ResourceWrite, Store } from '../ports/store.js'
import type { Presets } from '../presets/presets.js'
import type { PasswordHasher } from '../ports/password-hasher.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import { describeChanges, recordChanges } from '../history/record-change.js'
import { derivedFeatureValues, TERM_DATES } from '../features/feature-terms.js'
import { withStandardFeature } from '../features/standard-feature.js'
import { digitsOnly, type ListRequest } from './list-request.js'
import { normaliseNumber } from '../rating/phone-number.js'
import { checkParentCycle } from '../tariffs/parent-cycles.js'
import { checkTariffHolders } from '../tariffs/tariff-holders.js'
import { lockDetailTariff, lockOwners, namesParent } from './owners.js'
import { changedValues } from './changed-values.js'
import { creditLimitOwner, lockCreditOwner } from './credit-owner.js'
import { checkReferences, holdNamedTariffs, namesOthers } from './reference-checks.js'
import { portalClosing } from '../portal/portal-opening.js'
import { loginKey } from '../portal/portal-login.js'

/** What the resource use cases need. */
export interface ResourceContext {
  readonly store: Store
  readonly validator: InputValidator
  readonly clock: Clock
  readonly passwords: PasswordHasher
  /** The expected spend ratio a limit's change measures against (contract 17.7), the profiles that act on a limit passed (15.2), and the lists saying who requires regulator protection. */
  readonly presets: Pick<Presets, 'expectedSpendAlertRatio' | 'dunningProfiles' | 'defaultDunningProfile' | 'lists'>
  /** The catalogue, for the history of an action a limit passed takes (contract 15.2). */
  readonly resources: ReadonlyMap<ResourceName, Resource>
  /**
   * Runs in a write's transaction before it is stored: a change of a fixed fee tariff's prices
   * keeps those already charged (core/billing/tariff-price-freeze.ts, which this folder cannot import).
   */
  readonly beforeWrite: (store: Store, write: ResourceWrite) => Promise<void>
}

/** A customer scheduled for deletion is purged this many days later (contract 5.6). */
export const DELETION_GRACE_DAYS = 30

/** The initial state of anything with a lifecycle: active, not suspended, billable (contract 4). */
function initialValues(resource: Resource, clock: Clock): Values {
  const now = clock.now()
  const values: Values = {}
  const has = (name: string) => resource.byName.has(name)
  if (has('createdStamp')) values.createdStamp = now
  if (has('updatedStamp')) values.updatedStamp = now
  if (has('isDropped')) {
    values.isDropped = false
    values.isSuspended = false
    values.isBillable = true
    if (has('isFinalBill')) values.isFinalBill = false
    values.status = 'Active'
    values.statusChangedStamp = clock.today()
  }
  if (has('enteredDate')) values.enteredDate = clock.today()
  return values
}

/**
 * What a collection's writes do besides validation: a create body filled from a template, and
 * values derived from the request and the stored item (contract 11's feature rules; a customer's
 * portal closed moves it to its next opening, contract 14.3).
 */
interface WriteRules {
  template(body: unknown, presets: Presets): unknown
  derive(values: Values, current: Item | null): Values
  /**
   * Fields that count as given when a request sends them as stored (they are no change, but a
   * derived value must not replace them): a term date sent back beside a new term length.
   */
  readonly given?: readonly string[]
}
const writeRules: Partial<Record<ResourceName, WriteRules>> = {
  features: { template: (body, presets) => withStandardFeature(body, presets.standardFeatures), derive: derivedFeatureValues, given: TERM_DATES },
  customers: { template: (body) => body, derive: portalClosing },
}

/** Creates an item from a request body; `owner` sets the read-only owner IDs of a scoped create. */
/*
 * The use cases below serve any resource, read through the untyped repository of its name; they
 * answer the resource's entity type, which is what that repository reads (`Entity<N>`).
 */
const repositoryOf = (store: Store, resource: Resource) => store.repository<ResourceName>(resource.name)
/** An item that repository read, as its collection's entity type (the one cast these use cases need). */
const asEntity = <N extends ResourceName>(_resource: Resource<N>, item: Item): Entity<N> => item as Entity<N>

export async function createItem<N extends ResourceName>(ctx: ResourceContext, resource: Resource<N>, body: unknown, owner: Values = {}): Promise<Entity<N>> {
  const rules = writeRules[resource.name]
  const input = rules ? rules.template(body, ctx.validator.presets) : body
  const { values, refChecks } = ctx.validator.validateInput<ResourceName>(resource, input)
  if (rules) Object.assign(values, rules.derive(values, null))
  await hashSecrets(ctx, resource, values)
  const defaults = initialValues(resource, ctx.clock)
  const checked = async (store: Store) => {
    await checkReferences({ ...ctx, store }, resource, values, refChecks)
    await checkTariffHolders(store, resource, refChecks, values, null, owner)
  }
  const insert = (store: Store) =>
    // The item, its history entry and its event commit together (contract 12): one statement where the store can.
    store.insertRecorded(resource.name, withDerived(resource, { ...defaults, ...values, ...owner }), (item) =>
      describeChanges([{ resource, action: 'create', before: null, after: item }], ctx.clock),
    )
  const priced = resource.name === 'fixedFeeTariffDetails'
  if (!namesParent(owner) && !priced && !namesOthers(resource, values, refChecks)) return checked(ctx.store).then(() => insert(ctx.store))
  // In the transaction that inserts: the tariffs it names held first by their check (as
  // holdNamedTariffs takes them), then the parents locked, so none is renamed, deleted or dropped
  // before the child is in. The fields' checks still come first (contract 2: 400101/400102 before 400502).
  return ctx.store.transaction(async (store) => {
    await checked(store)
    await lockOwners(store, resource.name, owner)
    if (priced) await ctx.beforeWrite(store, { resource: resource.name, before: null, values: { ...values, ...owner } })
    return insert(store)
  })
}

export async function getItem<N extends ResourceName>(ctx: ResourceContext, resource: Resource<N>, id: string): Promise<Entity<N>> {
  const item = await repositoryOf(ctx.store, resource).get(id)
  if (!item) throw notFound(resource.singular, id)
  return asEntity(resource, item)
}

/**
 * Partial merge: absent fields unchanged, null clears, read-only fields compared, a value the item
 * already has ignored: a PATCH that changes nothing stores and records nothing (contract 2).
 * `record: false` leaves the history entry and event to a caller that changes the item further in
 * the same transaction (a feature's charge change), so they describe the whole change; `held`
 * says that caller already holds the tariffs the body names (`holdNamedTariffs`).
 */
export async function updateItem<N extends ResourceName>(
  ctx: ResourceContext,
  resource: Resource<N>,
  id: string,
  body: unknown,
  { record = true, held = false }: { readonly record?: boolean; readonly held?: boolean } = {},
): Promise<Entity<N>> {
  return ctx.store.transaction(async (store) => {
    const repo = repositoryOf(store, resource)
    if (!held) await holdNamedTariffs(store, ctx.validator, resource, body)
    await lockDetailTariff(store, resource.name, id)
    await lockCreditOwner(store, resource.name, id, body)
    const current = await repo.getForUpdate(id)
    if (!current) throw notFound(resource.singular, id)
    const input = ctx.validator.validateInput<ResourceName>(resource, body, current)
    // Only what changes is an update: the same value is ignored (contract 2), and an item keeps the references it has.
    const values = changedValues(resource, input.values, current)
    const refChecks = input.refChecks.filter((c) => c.field in values)
    if (Object.keys(values).length === 0) return asEntity(resource, current)
    await checkReferences({ ...ctx, store }, resource, values, refChecks)
    await checkTariffHolders(store, resource, refChecks, values, current, {})
    await checkParentCycle(store, resource, values, current)
    await hashSecrets(ctx, resource, values)
    const rules = writeRules[resource.name]
    // Derived from what changes, and the dates the request gave even as stored: a term date sent
    // back beside a new length wins over the one the length gives (contract 11), while a length
    // sent back unchanged derives nothing (a date a person set or a run rolled on stays).
    const given = Object.fromEntries((rules?.given ?? []).filter((f) => f in input.values).map((f) => [f, input.values[f]]))
    if (rules) Object.assign(values, rules.derive({ ...given, ...values }, current))
    if (resource.byName.has('updatedStamp')) values.updatedStamp = ctx.clock.now()
    await ctx.beforeWrite(store, { resource: resource.name, before: current, values })
    // Locked above, so still there.
    const updated = (await repo.update(id, withDerived(resource, values)))!
    // A changed credit limit changes the customer's credit alerts (contract 10.6).
    const owner = creditLimitOwner(resource.name, updated, values)
    const after = owner ? await refreshedItem(ctx, store, resource, updated, owner) : updated
    if (record) await recordChanges(store, ctx.clock, [{ resource, action: 'update', before: current, after }])
    return asEntity(resource, after)
  })
}

/** The updated item after its customer's credit alerts were measured again. */
async function refreshedItem(ctx: ResourceContext, store: Store, resource: Resource, updated: Item, owner: string): Promise<Item> {
  await refreshCreditAlerts(store, [owner], ctx.clock.now(), { candidates: true, expectedSpendAlertRatio: ctx.presets.expectedSpendAlertRatio, act: ctx })
  // The customer updated in this transaction: still there.
  return resource.name === 'customers' ? (await repositoryOf(store, resource).get(updated.id))! : updated
}

/** A resource's write-only and derived fields, found once: a create or update looks at only these. */
const special = new WeakMap<Resource, { writeOnly: Field[]; derived: Field[] }>()
function specialFields(resource: Resource): { writeOnly: Field[]; derived: Field[] } {
  let found = special.get(resource)
  if (!found) {
    found = { writeOnly: resource.columns.filter((f) => f.writeOnly), derived: resource.columns.filter((f) => f.digitsOf || f.matchKeyOf || f.loginKeyOf) }
    special.set(resource, found)
  }
  return found
}

/** Write-only fields (a contact's accountPassword) are stored only as hashes. */
async function hashSecrets(ctx: ResourceContext, resource: Resource, values: Values): Promise<void> {
  for (const f of specialFields(resource).writeOnly) {
    const v = values[f.name]
    if (f.writeOnly && typeof v === 'string') values[f.name] = await ctx.passwords.hash(v)
  }
}

/** Fills the hidden fields kept in step with others (digits-only and match-key copies of numbers, sign-in keys of logins). */
export function withDerived(resource: Resource, values: Values): Values {
  for (const f of specialFields(resource).derived) {
    if (f.digitsOf && f.digitsOf in values) {
      const source = values[f.digitsOf]
      values[f.name] = typeof source === 'string' ? digitsOnly(source) : null
    }
    if (f.matchKeyOf && f.matchKeyOf in values) {
      const source = values[f.matchKeyOf]
      const key = typeof source === 'string' ? normaliseNumber(source) : ''
      values[f.name] = key === '' ? null : key
    }
    if (f.loginKeyOf && f.loginKeyOf.field in values) {
      const source = values[f.loginKeyOf.field]
      const key = typeof source === 'string' ? loginKey(f.loginKeyOf.kind, source) : ''
      values[f.name] = key === '' ? null : key
    }
  }
  return values
}

/** One page of a list, with one extra item fetched to know whether a next page exists. */
export async function listItems(
  ctx: ResourceContext,
  resource: Resource,
  request: ListRequest,
  scope: ListRequest['where'] = [],
): Promise<{ items: Item[]; hasMore: boolean }> {
  return readPage((query) => ctx.store.repository(resource.name).list(query), request, scope)
}

/** `listItems` with each item as the JSON text the API answers with (see `ListJson`). */
export async function listWireItems(
  ctx: ResourceContext,
  resource: Resource,
  request: ListRequest,
  scope: ListRequest['where'] = [],
): Promise<{ items: WireItem[]; hasMore: boolean }> {
  return readPage((query) => ctx.store.listJson.list(resource.name, query), request, scope)
}

async function readPage<T>(read: (query: ListQuery) => Promise<T[]>, request: ListRequest, scope: ListRequest['where']) {
  return trimPage(await read(pageQuery(request, scope)), request)
}

/** The query of one page of a list: one item more than asked for, to know whether a next page exists. */
export function pageQuery(request: ListRequest, scope: ListRequest['where'] = []): ListQuery {
  return { where: [...scope, ...request.where], idAfter: request.idAfter, offset: request.offset, limit: request.limit + 1 }
}

/** The page of the rows `pageQuery` read, without the extra one. */
export function trimPage<T>(rows: T[], request: ListRequest): { items: T[]; hasMore: boolean } {
  const hasMore = rows.length > request.limit
  return { items: hasMore ? rows.slice(0, request.limit) : rows, hasMore }
}

/** One item as the JSON text the API answers with (written by the database where it can, as a list's item), or not_found. */
export async function getWireItem(ctx: ResourceContext, resource: Resource, id: string): Promise<WireItem> {
  const item = await ctx.store.listJson.get(resource.name, id)
  if (!item) throw notFound(resource.singular, id)
  return item
}

/**
 * Deleting a customer schedules its purge; it stays readable until then (contract 5.6). Recorded
 * as the action `scheduleDeletion` (`customer.deletion_scheduled`): the customer is not deleted
 * yet, and the purge records the one `delete` (`customer.deleted`) when it is.
 */
export async function scheduleCustomerDeletion(ctx: ResourceContext, resource: Resource, id: string): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    const repo = store.repository(resource.name)
    const current = await repo.getForUpdate(id)
    if (!current) throw notFound(resource.singular, id)
    if (current.deletionScheduledDate) return current
    const after = (await repo.update(id, {
      deletionScheduledDate: addDays(ctx.clock.today(), DELETION_GRACE_DAYS),
      updatedStamp: ctx.clock.now(),
    }))!
    await recordChanges(store, ctx.clock, [{ resource, action: 'scheduleDeletion', before: current, after }])
    return after
  })
}
