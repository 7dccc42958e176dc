/**
 * A shoe's audit chain as stored, parsed once per request: each record with its hashed event (when
 * the stored JSON can be read), and the events of each round.
 */
import { verifyChain } from '@pyb/fairness';
import type { AuditEvent, AuditRecord, ReplayProblem } from '../shared';

export interface ParsedEvent {
  record: AuditRecord;
  /** The hashed object; undefined when the stored JSON is unreadable. */
  event: AuditEvent | undefined;
}

export interface AuditLog {
  events: ParsedEvent[];
  /** Every round with events, in the order the chain first names it, with its events. */
  rounds: ReadonlyMap<string, ParsedEvent[]>;
  /** The round's events in chain order (by the hashed roundId, else the stored attribute). */
  ofRound(roundId: string): ParsedEvent[];
}

export function parseAuditLog(records: readonly AuditRecord[]): AuditLog {
  const events = records.map((record): ParsedEvent => {
    try {
      return { record, event: JSON.parse(record.event) as AuditEvent };
    } catch {
      return { record, event: undefined };
    }
  });
  const byRound = new Map<string, ParsedEvent[]>();
  for (const p of events) {
    const roundId = roundOf(p);
    if (roundId) byRound.set(roundId, [...(byRound.get(roundId) ?? []), p]);
  }
  return { events, rounds: byRound, ofRound: (roundId) => byRound.get(roundId) ?? [] };
}

/** The links verifyChain walks; an unreadable event goes in as its stored text, so its link breaks. */
const chainLinks = (events: readonly ParsedEvent[]) =>
  events.map((p) => ({ hash: p.record.hash, prevHash: p.record.prevHash, event: p.event ?? p.record.event }));

export const roundOf = (p: ParsedEvent): string | null => p.event?.roundId ?? p.record.roundId ?? null;

const problem = (code: string, detail: string, seq: number | null): ReplayProblem => ({
  code,
  detail,
  seq,
  playerId: null,
});

/**
 * The chain from its genesis (the commitment) through event `last`: gapless sequence numbers, every
 * stored item equal to its hashed event, every link and hash. Reports the first break of each kind.
 */
export function checkChainPrefix(
  log: AuditLog,
  shoeId: string,
  genesis: string,
  last: number,
): ReplayProblem[] {
  const problems: ReplayProblem[] = [];
  const prefix = log.events.slice(0, last + 1);
  const where = (p: ParsedEvent) => {
    const roundId = roundOf(p);
    return roundId
      ? `event ${p.record.seq} (${p.record.type} of round ${roundId})`
      : `event ${p.record.seq} (${p.record.type})`;
  };
  const gap = prefix.findIndex((p, i) => p.record.seq !== i);
  if (gap >= 0) {
    problems.push(
      problem('CHAIN_GAP', `the chain's event #${gap} has sequence number ${prefix[gap]!.record.seq}`, gap),
    );
  }
  const unreadable = prefix.find((p) => !p.event);
  if (unreadable) {
    problems.push(problem('EVENT_UNREADABLE', `${where(unreadable)} is not JSON`, unreadable.record.seq));
  }
  const mismatch = prefix.find(
    ({ record, event }) =>
      event &&
      (event.seq !== record.seq ||
        event.type !== record.type ||
        event.shoeId !== shoeId ||
        (event.roundId ?? null) !== (record.roundId ?? null)),
  );
  if (mismatch) {
    problems.push(
      problem(
        'EVENT_MISMATCH',
        `${where(mismatch)}: the stored attributes differ from the hashed event`,
        mismatch.record.seq,
      ),
    );
  }
  const verdict = verifyChain(chainLinks(prefix), genesis);
  if (!verdict.ok) {
    const broken = prefix[verdict.index]!;
    problems.push(
      problem(
        `CHAIN_${verdict.reason}`,
        verdict.reason === 'HASH'
          ? `${where(broken)} was altered: it hashes to ${verdict.expected}, the chain recorded ${verdict.actual}`
          : `${where(broken)} does not link to the event before it: ${verdict.detail}`,
        broken.record.seq,
      ),
    );
  }
  return problems;
}
