import { BillingError, notFound, quoted } from '../errors.js'
import { callClasses } from '../fields/call-classes.js'
import { unstorableReason } from '../fields/storable-text.js'
import type { PlatformContext } from '../platform.js'
import type { NewDestination } from '../ports/carrier-data.js'

/** One CSV record with the line it starts on, as the CSV adapter reads it. */
export interface DestinationLine {
  readonly fields: readonly string[]
  readonly line: number
}

const columns = ['prefix', 'chargeBand', 'callClass', 'description'] as const
type Column = (typeof columns)[number]
const PREFIX = /^\d{1,15}$/
const MAX_TEXT = 200
const squash = (s: string) => s.toLowerCase().replace(/[\s\-_]/g, '')
/** Classes a destination may give, by key or label: not `inbound`, which belongs to the dialled number. */
const classByName = new Map(callClasses.filter((c) => c.key !== 'inbound').flatMap((c) => [[squash(c.key), c.key], [squash(c.label), c.key]]))

/** A destination's `prefix` and `callClass` as stored, or the problem with them (`400101` naming the field). */
export function checkDestination(prefix: unknown, callClass: unknown): { prefix: string; callClass: string } {
  const p = typeof prefix === 'string' ? prefix.trim() : ''
  if (!PREFIX.test(p)) throw new BillingError('invalid_field', `prefix ${quoted(String(prefix ?? ''))} is not 1 to 15 digits`, 'Write the prefix as international digits without + or 00: 44, 447, 4420.')
  const c = typeof callClass === 'string' ? classByName.get(squash(callClass)) : undefined
  if (!c) throw new BillingError('invalid_field', `callClass ${quoted(String(callClass ?? ''))} is not one of ${[...new Set(classByName.values())].join(', ')}`, 'A destination gives an outbound class: inbound calls are known by the number called.')
  return { prefix: p, callClass: c }
}

/**
 * Adds a CSV of prefixes (`prefix`, `chargeBand`, `callClass`, optional `description`; header
 * first, names in any order, case ignored) to a destination table, all or nothing: a bad line,
 * a prefix given twice or one the table holds already rejects the file, naming the line.
 * Returns how many were added.
 */
export async function importDestinations(ctx: PlatformContext, destinationTableID: string, lines: AsyncIterable<readonly DestinationLine[]>): Promise<number> {
  const table = await ctx.store.repository('destinationTables').get(destinationTableID)
  if (!table) throw notFound('destination table', destinationTableID)
  const existing = await ctx.store.carriers.prefixesOf(destinationTableID)
  const now = ctx.clock.now()
  const rows: NewDestination[] = []
  const seen = new Map<string, number>()
  let positions: Partial<Record<Column, number>> | null = null
  for await (const batch of lines) {
    for (const { fields, line } of batch) {
      if (fields.every((f) => f.trim() === '')) continue
      if (!positions) {
        positions = header(fields, line)
        continue
      }
      const fail = (reason: string): never => {
        throw new BillingError('invalid_field', `line ${line}: ${reason}`, `Correct line ${line} and send the whole file again: nothing of it was kept.`)
      }
      const at = (c: Column) => {
        const v = positions![c] === undefined ? '' : (fields[positions![c]!] ?? '').trim()
        const why = unstorableReason(v)
        return why ? fail(`${c} ${why}`) : v
      }
      let checked: { prefix: string; callClass: string }
      try {
        checked = checkDestination(at('prefix'), at('callClass'))
      } catch (error) {
        return fail((error as Error).message)
      }
      const chargeBand = at('chargeBand') || fail('chargeBand is empty')
      const description = at('description') || null
      for (const [name, v] of [['chargeBand', chargeBand], ['description', description ?? '']] as const) if (v.length > MAX_TEXT) fail(`${name} is longer than ${MAX_TEXT} characters`)
      const before = seen.get(checked.prefix)
      if (before !== undefined) fail(`prefix ${checked.prefix} is on line ${before} already`)
      if (existing.has(checked.prefix)) fail(`prefix ${checked.prefix} is in the table already`)
      seen.set(checked.prefix, line)
      rows.push({ destinationTableID, prefix: checked.prefix, chargeBand, callClass: checked.callClass, description, createdStamp: now, updatedStamp: now })
    }
  }
  if (!positions) throw new BillingError('invalid_field', 'the file is empty: expected a header line', `Start the file with a header line: ${columns.join(',')}.`)
  if (rows.length > 0) await ctx.store.transaction((store) => store.carriers.insertDestinations(rows))
  return rows.length
}

function header(fields: readonly string[], line: number): Partial<Record<Column, number>> {
  const byName = new Map<string, Column>(columns.map((c) => [c.toLowerCase(), c]))
  const positions: Partial<Record<Column, number>> = {}
  fields.forEach((raw, i) => {
    const name = (i === 0 ? raw.replace(/^\uFEFF/, '') : raw).trim()
    const column = byName.get(name.toLowerCase())
    if (!column) throw new BillingError('invalid_field', `line ${line}: unknown column ${quoted(name)}`, `Columns: ${columns.join(', ')}.`)
    if (positions[column] !== undefined) throw new BillingError('invalid_field', `line ${line}: column "${column}" appears twice`, `Columns: ${columns.join(', ')}.`)
    positions[column] = i
  })
  const missing = columns.slice(0, 3).filter((c) => positions[c] === undefined)
  if (missing.length) throw new BillingError('invalid_field', `line ${line}: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, `Columns: ${columns.join(', ')}.`)
  return positions
}
