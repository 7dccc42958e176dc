/**
 * Deadlines for closing an ended shoe (docs/provably-fair.md §10, "shoes accounted for"): when the cut
 * card ends a shoe, a check is scheduled on AWS's own scheduler (EventBridge Scheduler, one-time
 * schedule per shoe); if the shoe is still not closed (seed not revealed) when it runs, an alarm goes
 * off. The local adapter only records what it was asked.
 */
export interface ShoeRef {
  shoeId: string;
  tableId: string;
  operatorId: string;
}

export interface CloseDeadlines {
  /** Schedules the check of `shoe` at `dueAt` (ISO). Idempotent per shoe: a second call is a no-op. */
  schedule(shoe: ShoeRef, dueAt: string): Promise<void>;
}

/** Nothing scheduled: for cores that never end a shoe (read-only functions). */
export const noCloseDeadlines: CloseDeadlines = { schedule: async () => undefined };
