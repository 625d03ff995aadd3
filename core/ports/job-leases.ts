/**
 * Exclusive, expiring claims on named jobs shared by every process on one database: a job runs
 * only where its lease is held, and a killed holder's lease lapses so another can finish the work.
 */
export interface JobLeases {
  /** Takes the lease for `ttlMs` if it is free, expired, or already ours; false otherwise. */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>
  /** Extends a lease we hold; false if it was lost. */
  renew(name: string, holder: string, ttlMs: number): Promise<boolean>
  release(name: string, holder: string): Promise<void>
}
