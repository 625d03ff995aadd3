/**
 * The counter that orders calls becoming billable against billing runs, so that a run never has
 * to write its calls (docs/scaling.md). A call stores the mark current when it was imported,
 * rated or restored; a run takes a new mark once its calls are rated, bills the calls marked
 * below it, and its `Call Charges` rows cover only those: a call that comes later (a late file,
 * a restore) is marked at or above it, so the run's rows never claim it.
 *
 * Marks also bound what a run reads: after a completed run, a call it left unbilled started
 * after its cutoff, or was made billable since (marked at or above its mark), or was left by it
 * for a number that was not billable then (noted under its mark). The writers note the earliest
 * start of what they mark (`noteSince`), so a run reads calls from the earliest of these
 * (core/billing/run-call-mark.ts), not each customer's whole history.
 */
export interface CallMarks {
  /**
   * The mark for calls written now. Where writers run beside each other (Postgres) it is held,
   * shared, to the end of the caller's transaction: `advance` waits for it, so a run's mark
   * comes only after every call written under the mark before it is committed and readable.
   */
  current(): Promise<number>
  /** Moves the counter on (after the writers holding it commit) and returns the new mark. */
  advance(): Promise<number>
  /**
   * Records that calls marked `mark` were made billable starting as early as `since` (a stamp;
   * '' for "any start"): what a run that comes after a completed one reads besides the calls
   * started after that run's cutoff (`earliestSince`).
   */
  noteSince(mark: number, since: string): Promise<void>
  /** The earliest start noted for a mark at or above `fromMark`, or null when none is. */
  earliestSince(fromMark: number): Promise<string | null>
  /** Forgets the notes of marks below `mark`: no run reads them again once a run with that mark completed. */
  forgetBefore(mark: number): Promise<void>
}
