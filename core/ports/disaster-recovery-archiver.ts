/** A stored archive opened for reading: its size and its bytes, read as they are sent. */
export interface ArchiveContent {
  readonly size: number
  readonly stream: ReadableStream<Uint8Array>
}

/**
 * Writes, opens and removes the encrypted disaster-recovery archives of the whole database
 * (contract 8). Archives go to and come from storage as streams, never whole in memory.
 * File names are plain names (no directories); where they live is the archiver's business.
 */
export interface DisasterRecoveryArchiver {
  /** Whether a password is configured; without one no archive can be written. */
  readonly canWrite: boolean
  /**
   * Writes an encrypted archive of one consistent snapshot of every table under `filename`.
   * The file appears under that name only once complete; resolves with its size in bytes.
   */
  write(filename: string): Promise<{ size: number }>
  /** The archive, or undefined when its file is missing. */
  open(filename: string): Promise<ArchiveContent | undefined>
  /** Deletes the archive's file; a missing file is not an error. */
  remove(filename: string): Promise<void>
  /**
   * Deletes what an interrupted write left (plain table copies, partial archives); answers how
   * many. `all`: everything, only while no write can be running anywhere (under the archive
   * job's lease). `of-dead-processes`: what processes of this machine that are gone left
   * (at start-up, before this process writes any and before the lease can be had again).
   */
  removeLeftovers(scope: LeftoverScope): Promise<number>
}

export const LEFTOVER_SCOPES = ['all', 'of-dead-processes'] as const
export type LeftoverScope = (typeof LEFTOVER_SCOPES)[number]
