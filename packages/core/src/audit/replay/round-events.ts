/**
 * The checks of a round's own audit events against its stored round item: the events its status calls
 * for, in order, the item's pointers at them, and the coup COUP_DEALT recorded. Part of the one audit
 * checker (verify.ts), which the replay and checkShoeChain both run.
 */
import { type CoupResult, cardsText, dealtCards } from '@pyb/engine';
import type { ReplayProblem, RoundRecord } from '../../shared';
import { same } from '../../shared';
import type { ParsedEvent } from '../../trail';
import { coupDifferences } from './coup-diffs';

/** A problem of the round's own events (the audit checker adds the player where there is one). */
export type RoundProblem = Omit<ReplayProblem, 'playerId'>;

const upToClose = (closed: boolean) => ['ROUND_OPENED', ...(closed ? ['BETTING_CLOSED'] : [])];
/** A round's events by its status: dealing needs betting closed (resolve), a void may come before. */
const EXPECTED_EVENTS: Record<RoundRecord['status'], (closed: boolean) => string[]> = {
  OPEN: upToClose,
  CLOSED: upToClose,
  DEALT: () => ['ROUND_OPENED', 'BETTING_CLOSED', 'COUP_DEALT'],
  SETTLING: () => ['ROUND_OPENED', 'BETTING_CLOSED', 'COUP_DEALT'],
  SETTLED: () => ['ROUND_OPENED', 'BETTING_CLOSED', 'COUP_DEALT', 'ROUND_SETTLED'],
  VOIDING: upToClose,
  VOIDED: (closed) => [...upToClose(closed), 'ROUND_VOIDED'],
};
/** The event each audit pointer of the round item names. */
const POINTERS = {
  opened: 'ROUND_OPENED',
  bettingClosed: 'BETTING_CLOSED',
  dealt: 'COUP_DEALT',
  settled: 'ROUND_SETTLED',
  voided: 'ROUND_VOIDED',
} as const;

export const eventOf = (events: readonly ParsedEvent[], type: string): ParsedEvent | undefined =>
  events.find((x) => x.event?.type === type);

/** The round's events (chain order) are the ones its status calls for, and its item points at them and agrees with them. */
export function roundEventProblems(round: RoundRecord, events: readonly ParsedEvent[]): RoundProblem[] {
  const id = round.roundId;
  const problems: RoundProblem[] = [];
  const types = events.map((x) => x.event?.type ?? '?');
  const expected = EXPECTED_EVENTS[round.status](round.audit.bettingClosed !== undefined);
  if (!same(types, expected)) {
    const detail = `round ${id} (${round.status}) has events ${types.join(', ')}; expected ${expected.join(', ')}`;
    problems.push({ code: 'EVENT_ORDER', detail, seq: events[0]?.record.seq ?? null });
  }
  const pointers = Object.entries(POINTERS) as [keyof typeof POINTERS, string][];
  if (!pointers.every(([key, type]) => round.audit[key] === eventOf(events, type)?.record.seq)) {
    const detail = `round ${id}: the round item points at other events than the chain holds`;
    problems.push({ code: 'ROUND_MISMATCH', detail, seq: null });
  }
  const opened = eventOf(events, 'ROUND_OPENED')?.event;
  if (opened && opened.data.number !== round.number) {
    const detail = `round ${id}: ROUND_OPENED numbers the round ${String(opened.data.number)}, the round item ${round.number}`;
    problems.push({ code: 'ROUND_MISMATCH', detail, seq: opened.seq });
  }
  return problems;
}

/** The stored coup is the one COUP_DEALT recorded when it was dealt (nothing to check before). */
export function coupDealtProblems(round: RoundRecord, events: readonly ParsedEvent[]): RoundProblem[] {
  const dealt = eventOf(events, 'COUP_DEALT')?.event;
  if (!dealt) return [];
  const id = round.roundId;
  const coup = round.coup;
  if (!coup) {
    const detail = `round ${id}: COUP_DEALT was recorded but the round item has no coup`;
    return [{ code: 'COUP_MISMATCH', detail, seq: dealt.seq }];
  }
  const cards = dealtCards(coup.result);
  const chainCards = Array.isArray(dealt.data.cards) ? dealt.data.cards : [];
  const field = (name: string, chain: unknown, stored: number | boolean) =>
    chain === stored ? [] : [`${name} ${String(chain)}, stored ${stored}`];
  const diffs = [
    ...coupDifferences(dealt.data.coup as CoupResult, coup.result),
    ...(same(dealt.data.cards, cards)
      ? []
      : [`cards dealt ${cardsText(chainCards)}, stored ${cardsText(cards)}`]),
    ...field('start', dealt.data.start, coup.start),
    ...field('coup index', dealt.data.index, coup.index),
    ...field('last', dealt.data.last, coup.last),
  ];
  if (diffs.length === 0) return [];
  const detail = `round ${id}: the stored coup is not the one COUP_DEALT recorded when it was dealt: ${diffs.join('; ')}`;
  return [{ code: 'COUP_MISMATCH', detail, seq: dealt.seq }];
}
