import { sql, type RawBuilder } from 'kysely'
import type { Resource } from '../../core/fields/resource.js'
import type { WireMember } from './dialect/wire-json.js'

/**
 * The members of a resource's wire JSON as the database writes them: every field toWireJson
 * shows, in catalogue order, read from the table's columns; `computed` gives the SQL of the
 * computed fields (a customer's balance). Internal fields are never shown, write-only ones are null.
 */
export function wireMembers(resource: Resource, table: string, computed: Readonly<Record<string, RawBuilder<unknown>>>): WireMember[] {
  return resource.fields
    .filter((f) => !f.internal)
    .map((field) => {
      if (field.writeOnly) return { field, value: null }
      if (field.computed) {
        const value = computed[field.name]
        if (!value) throw new Error(`${resource.name}.${field.name} is computed outside the database`)
        return { field, value, computed: true }
      }
      return { field, value: sql.ref(`${table}.${field.name}`) }
    })
}
