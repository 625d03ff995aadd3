import { getArchive, openArchive, unexpiredWhere } from '../../core/disaster-recovery/archive-files.js'
import type { ShownOf } from '../../core/fields/entity.js'
import type { Item } from '../../core/fields/item.js'
import type { PlatformContext } from '../../core/platform.js'
import { readPage, shownPage, toPage, visibleItem, type ListParams, type Page } from './resource-api.js'

/** An archive as `GET /disasterRecoveryFiles/<id>` with `Accept: application/x-7z-compressed` sends it. */
export interface DisasterRecoveryArchive {
  /** The file's name (`Content-Disposition`). */
  readonly filename: string
  /** Its size in bytes (`Content-Length`). */
  readonly size: number
  /** The encrypted 7z archive, read from storage as it is consumed (cancel it to stop early). */
  readonly stream: ReadableStream<Uint8Array>
}

/**
 * Disaster-recovery files (contract 8): the encrypted archives of the whole database, written
 * by the scheduler when `drPassword` is set. An expired or unknown file is `dr_file_not_found`
 * (404102), as over HTTP.
 */
export interface DisasterRecoveryFilesApi {
  /** One page of the files still available (unexpired). */
  list(params?: ListParams<'disasterRecoveryFiles'>): Promise<Page<ShownOf<'disasterRecoveryFiles'>>>
  /** An available file's metadata. */
  get(id: string): Promise<ShownOf<'disasterRecoveryFiles'>>
  /** An available file's archive, streamed; one listed but gone from storage is `dr_file_not_found` and marked `Missing`. */
  archive(id: string): Promise<DisasterRecoveryArchive>
}

export function disasterRecoveryFilesApi(ctx: PlatformContext): DisasterRecoveryFilesApi {
  return {
    list: async (params) =>
      shownPage('disasterRecoveryFiles', toPage(await readPage(ctx, 'disasterRecoveryFiles', params, { scope: async () => unexpiredWhere(ctx.clock.today()) }))),
    get: async (id) => visibleItem('disasterRecoveryFiles', (await getArchive(ctx, id)) as Item) as unknown as ShownOf<'disasterRecoveryFiles'>,
    archive: async (id) => {
      const item = await getArchive(ctx, id)
      const { size, stream } = await openArchive(ctx, item)
      return { filename: item.filename as string, size, stream }
    },
  }
}
