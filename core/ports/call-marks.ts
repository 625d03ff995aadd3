/**
 * The counter that orders calls becoming billable against billing runs, so that a run never has
 * to write its calls (docs/scaling.md). A call stores the mark current when it was imported,
 * rated or restored; a run takes a new mark once its calls are rated, bills the calls marked
 * below it, and its `Call Charges` rows cover only those: a call that comes later (a late file,
 * a restore) is marked at or above it, so the run's rows never claim it.
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
}
