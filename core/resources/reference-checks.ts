import { BillingError, quoted } from '../errors.js'
import type { Field } from '../fields/field.js'
import type { Values } from '../fields/item.js'
import type { Resource, ResourceName } from '../fields/resource.js'
import type { InputValidator, RefCheck } from '../input/validate.js'
import type { Store } from '../ports/store.js'

/** What the checks read: the store of the write's transaction and the catalogue, for the singular of what a field names. */
interface ReferenceContext {
  readonly store: Store
  readonly resources: ReadonlyMap<ResourceName, Resource>
}

/**
 * Refuses a write whose fields name other resources that do not exist (contract 4): tariff names
 * (`checks`, from validation) and IDs (`idRef` fields among `values`). The caller gives only the
 * values the write changes, so an item keeps a reference it already has.
 */
export async function checkReferences(ctx: ReferenceContext, resource: Resource, values: Values, checks: readonly RefCheck[]): Promise<void> {
  await checkNames(ctx.store, resource, checks)
  await checkIDs(ctx, resource, values)
}

async function checkNames(store: Store, resource: Resource, checks: readonly RefCheck[]): Promise<void> {
  for (const ref of ['tariffs', 'fixedFeeTariffs'] as const) {
    const wanted = checks.filter((c) => c.ref === ref)
    if (wanted.length === 0) continue
    // Held until the write commits: a delete or rename of the tariff meanwhile waits for it, then
    // sees this item among its users; or commits first, and this check no longer finds the name.
    const existing = await store.namesExisting(ref, wanted.map((c) => c.value), { hold: true })
    const missing = wanted.find((c) => !existing.has(c.value))
    if (missing) {
      const kind = ref === 'tariffs' ? 'call tariff' : 'fixed fee tariff'
      throw new BillingError(
        'invalid_field',
        `Field "${missing.field}" of ${resource.singular} names no existing ${kind}: ${quoted(String(missing.value))}`,
        `Use the name of an existing ${kind}.`,
        { presetsOf: resource.name },
      )
    }
  }
}

/**
 * Share-locks, before a write locks anything else, the tariffs its body names (as validation will
 * read them; a value it refuses is left to that). Every write takes tariffs before the items in
 * its path: a tariff's own write (a rename, a detail, its parent) locks it and then the features
 * it prices, so a write of one of those that held its item first and then waited for the tariff
 * could deadlock with it. The check itself comes later (`checkReferences`), on rows already held.
 */
export async function holdNamedTariffs(store: Store, validator: InputValidator, resource: Resource, body: unknown): Promise<void> {
  if (typeof body !== 'object' || body === null) return
  for (const ref of ['tariffs', 'fixedFeeTariffs'] as const) {
    const names: string[] = []
    for (const field of fieldsWith(resource, 'ref')) {
      if (field.ref !== ref || !Object.hasOwn(body, field.name)) continue
      const value = validator.check(field, (body as Record<string, unknown>)[field.name])
      if (typeof value === 'string') names.push(value)
    }
    if (names.length > 0) await store.namesExisting(ref, names, { hold: true })
  }
}

/** An ID as the API writes them: a positive integer without leading zeros. */
const ID = /^[1-9]\d{0,15}$/

/** Each `idRef` field `values` sets names an existing row of its resource; null, or blank text, names none. */
async function checkIDs(ctx: ReferenceContext, resource: Resource, values: Values): Promise<void> {
  for (const field of fieldsWith(resource, 'idRef')) {
    if (!(field.name in values)) continue
    const value = values[field.name]
    // Rating reads a parent tariff's ID trimmed (parent-tariffs.ts): so is it checked.
    const id = value === null ? '' : String(value).trim()
    if (id === '') continue
    // A parent (a tariff's, in its own collection) is locked until the write commits: its delete,
    // which refuses while it has children (removals.ts), either sees this write or this write it.
    const repo = ctx.store.repository(field.idRef!)
    if (ID.test(id) && (await (field.idRef === resource.name ? repo.getForUpdate(id) : repo.get(id)))) continue
    const what = ctx.resources.get(field.idRef!)?.singular ?? field.idRef!
    throw new BillingError(
      'invalid_field',
      `Field "${field.name}" of ${resource.singular} names no existing ${what}: ${quoted(String(value))}`,
      `Give the ID of an existing ${what}, or null.`,
    )
  }
}

/** Whether a write names another item, a tariff by name (`checks`) or a parent by ID: its checks must hold until it commits. */
export const namesOthers = (resource: Resource, values: Values, checks: readonly RefCheck[]): boolean =>
  checks.length > 0 || fieldsWith(resource, 'idRef').some((f) => f.idRef === resource.name && values[f.name] !== null && values[f.name] !== undefined)

/** A resource's fields that name a tariff (`ref`) or hold another resource's ID (`idRef`), found once. */
const found = { ref: new WeakMap<Resource, readonly Field[]>(), idRef: new WeakMap<Resource, readonly Field[]>() }
function fieldsWith(resource: Resource, key: 'ref' | 'idRef'): readonly Field[] {
  let fields = found[key].get(resource)
  if (!fields) found[key].set(resource, (fields = resource.fields.filter((f) => f[key])))
  return fields
}
