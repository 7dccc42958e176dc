import type { PositionRecord, ReplayCheck, ReplayProblem, RoundRecord, ShoeRecord } from '../../shared';
import type { AuditLog } from '../../trail';
import type { PositionLedger } from './ledger';
import type { Reveal } from './revealed';
import type { KeyLookup } from './signing-keys';

/** What a shoe's checks read: its record, its parsed chain, its reveal and the keys its statements name. */
export interface ShoeEvidence {
  shoe: ShoeRecord;
  log: AuditLog;
  reveal: Reveal;
  /** The keys the statement and the close statement name (the close's once the shoe is closed). */
  keys: { statement: KeyLookup; close: KeyLookup | undefined };
}

export interface RoundEvidence extends ShoeEvidence {
  round: RoundRecord;
  /** Every position of the round. */
  positions: readonly PositionRecord[];
  /** Ledger entries of the positions whose money is checked (by player). */
  ledgers: ReadonlyMap<string, PositionLedger>;
}

/** The problems a check found, and its result. */
export class Problems {
  readonly list: ReplayProblem[] = [];
  add(code: string, detail: string, seq: number | null = null, playerId: string | null = null): void {
    this.list.push({ code, detail, seq, playerId });
  }
  addAll(problems: readonly (Omit<ReplayProblem, 'playerId'> & { playerId?: string | null })[]): void {
    for (const x of problems) this.add(x.code, x.detail, x.seq, x.playerId ?? null);
  }
  /** PASSED with `passed` as the detail, or FAILED listing what broke. */
  check(passed: string): ReplayCheck {
    return this.list.length === 0
      ? { status: 'PASSED', detail: passed, problems: [] }
      : { status: 'FAILED', detail: this.list.map((p) => p.detail).join('; '), problems: this.list };
  }
}
