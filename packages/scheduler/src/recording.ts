/** Deadlines for dev and tests: remember what was scheduled (there is no local scheduler to run them). */
import type { CloseDeadlines, DeadlineState, RoundDeadlines, RoundRef, ShoeRef } from '@pyb/core';

export class RecordingCloseDeadlines implements CloseDeadlines {
  readonly scheduled = new Map<string, { shoe: ShoeRef; dueAt: string }>();

  async schedule(shoe: ShoeRef, dueAt: string): Promise<void> {
    if (!this.scheduled.has(shoe.shoeId)) this.scheduled.set(shoe.shoeId, { shoe, dueAt });
  }
}

export class RecordingRoundDeadlines implements RoundDeadlines {
  /** In the order asked, one per round and second (as the scheduler's names make them). */
  readonly scheduled: { round: RoundRef; state: DeadlineState; dueAt: string }[] = [];

  async schedule(round: RoundRef, state: DeadlineState, dueAt: string): Promise<void> {
    const second = Math.ceil(Date.parse(dueAt) / 1000);
    const same = (s: { round: RoundRef; dueAt: string }) =>
      s.round.roundId === round.roundId && Math.ceil(Date.parse(s.dueAt) / 1000) === second;
    if (!this.scheduled.some(same)) this.scheduled.push({ round, state, dueAt });
  }

  /** The deadlines of one round, in the order they were scheduled. */
  of(roundId: string) {
    return this.scheduled.filter((s) => s.round.roundId === roundId);
  }
}
