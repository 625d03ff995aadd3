/**
 * Exclusive, expiring claims on named jobs shared by every process on one database: a job runs
 * only where its lease is held, and a killed holder's lease lapses so another can finish the work.
 */
export interface JobLeases {
  /**
   * Takes the lease for `ttlMs` if it is free or expired; false otherwise, also when `holder`
   * holds it already (a second run of one holder must not think it has it).
   */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>
  /** Extends a lease we hold; false if it was lost. */
  renew(name: string, holder: string, ttlMs: number): Promise<boolean>
  /** Gives the lease up if `holder` still holds it; one taken over since stays with its new holder. */
  release(name: string, holder: string): Promise<void>
}
