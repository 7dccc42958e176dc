/** CloseDeadlines for dev and tests: remembers what was scheduled (there is no local scheduler to run it). */
import type { CloseDeadlines, ShoeRef } from '@pyb/core';

export class RecordingCloseDeadlines implements CloseDeadlines {
  readonly scheduled = new Map<string, { shoe: ShoeRef; dueAt: string }>();

  async schedule(shoe: ShoeRef, dueAt: string): Promise<void> {
    if (!this.scheduled.has(shoe.shoeId)) this.scheduled.set(shoe.shoeId, { shoe, dueAt });
  }
}
