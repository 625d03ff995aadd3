import type { ShownOf } from '../../core/fields/entity.js'
import type { PlatformContext } from '../../core/platform.js'
import { deleteCall } from '../../core/rating/calls.js'
import { importUsageText } from '../../adapters/csv/usage-file-import.js'
import { parentScope } from '../../core/resources/scopes.js'
import { readApi, readPage, shown, shownPage, toPage, type ListParams, type Page, type ReadApi } from './resource-api.js'

/** Usage (call records) imports. */
export interface UsageApi {
  /**
   * Imports a CSV usage file given line by line (the header line first; a quoted field may go
   * on over several lines), all or nothing: a bad row rejects the whole file naming its line;
   * records imported before are skipped. Answers the usage file with its counts (rows,
   * imported, duplicates, rated, unbilled). A string second argument is the file's name.
   */
  importFile(lines: AsyncIterable<string> | Iterable<string>, options?: string | UsageImportOptions): Promise<ShownOf<'usageFiles'>>
}

/** How `usage.importFile` reads a file: `POST /usageFiles?name=&format=`. */
export interface UsageImportOptions {
  /** A label for the file. */
  readonly name?: string
  /**
   * A presets `usageFormats` name: the file is in that carrier's layout (columns, date and time
   * patterns, duration, delimiter; contract 17.3); an unknown name is `invalid_field` listing them.
   */
  readonly format?: string
}

/** Calls imported from usage files. */
export interface CallsApi extends ReadApi<'calls'> {
  /** One page of the calls of a customer or a number. */
  listOf(owner: { readonly customerID: string } | { readonly numberID: string }, params?: ListParams<'calls'>): Promise<Page<ShownOf<'calls'>>>
  /** Marks a call deleted so no run bills it (`state_not_allowed` once billed); `customers.action(id, 'restoreCalls')` brings them back. */
  delete(id: string): Promise<ShownOf<'calls'>>
}

/** Characters of lines given to the CSV parser at once: a piece of text's records are parsed and imported together. */
const TEXT_PIECE = 64 * 1024

/** The lines as one text, each ended by a line break, for the CSV parser, in pieces of many lines. */
export async function* asText(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
  let piece = ''
  for await (const line of lines) {
    piece += `${line}\n`
    if (piece.length >= TEXT_PIECE) {
      yield piece
      piece = ''
    }
  }
  if (piece) yield piece
}

export function usageApi(ctx: PlatformContext): UsageApi {
  return {
    importFile: (lines, options) => {
      const { name, format } = typeof options === 'string' ? { name: options } : (options ?? {})
      return shown('usageFiles', importUsageText(ctx, asText(lines), name ?? null, format ?? null))
    },
  }
}

export function callsApi(ctx: PlatformContext): CallsApi {
  return {
    ...readApi(ctx, 'calls'),
    listOf: async (owner, params) => {
      const [parent, column, id] = 'customerID' in owner ? (['customers', 'customerID', owner.customerID] as const) : (['numbers', 'numberID', owner.numberID] as const)
      return shownPage('calls', toPage(await readPage(ctx, 'calls', params, { scope: () => parentScope(ctx.store, parent, id, column) })))
    },
    delete: (id) => shown('calls', deleteCall(ctx, id)),
  }
}
