import type { Clock } from '../ports/clock.js'
import type { NewEvent, NewHistoryEntry } from '../ports/change-log.js'
import type { Store } from '../ports/store.js'
import { eventTypeOf } from '../fields/events.js'
import type { Item } from '../fields/item.js'
import type { Resource, ResourceName } from '../fields/resource.js'
import { toWire } from '../fields/wire.js'
import { toWireJson } from '../fields/wire-json.js'

/** Collections whose changes are recorded in history (contract 12), each item with a history of its own. */
export const historiedCollections = [
  'customers',
  'numbers',
  'services',
  'features',
  'customerContacts',
  'tariffs',
  'fixedFeeTariffs',
  'tariffDetails',
  'fixedFeeTariffDetails',
  'transactions',
  'billingRuns',
  'creditNotes',
] as const satisfies readonly ResourceName[]

const historied: ReadonlySet<ResourceName> = new Set(historiedCollections)

export const REDACTED = '[redacted]'

/** One change of one item: the item before (null on create) and after (null on delete). */
export interface Change {
  readonly resource: Resource
  readonly action: string
  readonly before: Item | null
  readonly after: Item | null
}

/** `{field: [before, after]}` for the fields whose wire values differ; write-only ones redacted. */
export function changedFields(resource: Resource, before: Item | null, after: Item | null): Record<string, [unknown, unknown]> {
  const was = before ? toWire(resource, before) : null
  const now = after ? toWire(resource, after) : null
  const out: Record<string, [unknown, unknown]> = {}
  for (const f of resource.fields) {
    if (f.internal) continue
    if (f.writeOnly) {
      const a = before?.[f.name] ?? null
      const b = after?.[f.name] ?? null
      if (a !== b) out[f.name] = [a === null ? null : REDACTED, b === null ? null : REDACTED]
      continue
    }
    const a = was ? was[f.name] : null
    const b = now ? now[f.name] : null
    const empty = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0)
    if (!was && empty(b)) continue
    if (!now && empty(a)) continue
    // A create's or a delete's every value left is a change: no text to compare.
    if (!was || !now || JSON.stringify(a) !== JSON.stringify(b)) out[f.name] = [a, b]
  }
  return out
}

/** The customer an item belongs to, for history's `customerID`. */
function customerOf(resource: Resource, item: Item): string | null {
  if (resource.name === 'customers') return item.id
  const id = item.customerID
  return typeof id === 'string' ? id : null
}

/** The history entry and event of each change, stamped now. An update that changed nothing records nothing. */
export function describeChanges(changes: readonly Change[], clock: Clock): { entries: NewHistoryEntry[]; events: NewEvent[] } {
  const createdStamp = clock.now()
  const entries: NewHistoryEntry[] = []
  const events: NewEvent[] = []
  for (const c of changes) {
    const item = c.after ?? c.before
    if (!item) continue
    const fields = changedFields(c.resource, c.before, c.after)
    if (c.action === 'update' && Object.keys(fields).length === 0) continue
    if (historied.has(c.resource.name)) {
      entries.push({ resource: c.resource.name, resourceID: item.id, customerID: customerOf(c.resource, item), action: c.action, changes: fields, createdStamp })
    }
    const type = eventTypeOf(c.resource.name, c.action)
    if (type) events.push({ type, data: toWireJson(c.resource, item), createdStamp })
  }
  return { entries, events }
}

/** Records changes in the store's transaction: history entries and events commit with the change. */
export async function recordChanges(store: Store, clock: Clock, changes: readonly Change[]): Promise<void> {
  const { entries, events } = describeChanges(changes, clock)
  if (entries.length || events.length) await store.changes.append(entries, events)
}

/** Appends events the engine raises (an invoice raised, a run completed) in the store's transaction. */
export async function appendEvents(store: Store, clock: Clock, type: string, resource: Resource, items: readonly Item[]): Promise<void> {
  if (items.length === 0) return
  const createdStamp = clock.now()
  await store.changes.append([], items.map((item) => ({ type, data: toWireJson(resource, item), createdStamp })))
}
