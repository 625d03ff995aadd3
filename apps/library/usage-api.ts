import type { Item } from '../../core/fields/item.js'
import type { PlatformContext } from '../../core/platform.js'
import { deleteCall } from '../../core/rating/calls.js'
import { importUsageFile } from '../../core/rating/import-usage.js'
import { parentScope } from '../../core/resources/scopes.js'
import { readApi, readPage, toPage, type ListParams, type Page, type ReadApi } from './resource-api.js'

/** Usage (call records) imports. */
export interface UsageApi {
  /**
   * Imports a CSV usage file, line by line (the header line first), all or nothing: a bad row
   * rejects the whole file naming its line; records imported before are skipped. Answers the
   * usage file with its counts (rows, imported, duplicates, rated, unbilled).
   */
  importFile(lines: AsyncIterable<string> | Iterable<string>, name?: string): Promise<Item>
}

/** Calls imported from usage files. */
export interface CallsApi extends ReadApi {
  /** One page of the calls of a customer or a number. */
  listOf(owner: { readonly customerID: string } | { readonly numberID: string }, params?: ListParams): Promise<Page>
  /** Marks a call deleted so no run bills it (`state_not_allowed` once billed); `customers.action(id, 'restoreCalls')` brings them back. */
  delete(id: string): Promise<Item>
}

async function* each(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
  yield* lines
}

export function usageApi(ctx: PlatformContext): UsageApi {
  return { importFile: (lines, name) => importUsageFile(ctx, each(lines), name ?? null) }
}

export function callsApi(ctx: PlatformContext): CallsApi {
  return {
    ...readApi(ctx, 'calls'),
    listOf: async (owner, params) => {
      const [parent, column, id] = 'customerID' in owner ? (['customers', 'customerID', owner.customerID] as const) : (['numbers', 'numberID', owner.numberID] as const)
      return toPage(await readPage(ctx, 'calls', params, { scope: () => parentScope(ctx.store, parent, id, column) }))
    },
    delete: (id) => deleteCall(ctx, id),
  }
}
