import type { Field } from '../fields/field.js'
import type { Resource } from '../fields/resource.js'
import type { Store } from '../ports/store.js'
import type { Presets } from '../presets/presets.js'

/**
 * Whether presets discovery lists this field (contract 4: every Preset Value(s) field): the ones
 * clients give, and read-only ones whose names come from a list (an invoice's status, a
 * customer's creditAlerts), so a client knows every name it can read.
 */
export const takesPresetValue = (f: Field): boolean =>
  (f.type === 'preset' || f.type === 'presets') && !f.internal && (!f.readOnly || !!f.createOnly || f.list !== undefined)

/** The allowed values of every preset field of a resource: configured lists, or tariff names (contract 4). */
export async function presetValues(ctx: { store: Store; presets: Presets }, resource: Resource): Promise<Record<string, readonly string[]>> {
  const out: Record<string, readonly string[]> = {}
  const refs = new Map<string, string[]>()
  for (const f of resource.fields) {
    if (!takesPresetValue(f)) continue
    if (f.ref) {
      if (!refs.has(f.ref)) refs.set(f.ref, await ctx.store.tariffNames(f.ref))
      out[f.name] = refs.get(f.ref)!
    } else if (f.list) {
      out[f.name] = ctx.presets.lists[f.list] ?? []
    }
  }
  return out
}
