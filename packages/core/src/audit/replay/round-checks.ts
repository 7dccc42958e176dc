/** The audit checks of a round's play: its chain events, its burn, its tableau and coup. */
import { type CoupResult, cardsText, dealtCards, playCoup, showCard } from '@pyb/engine';
import type { ReplayProblem, RoundRecord } from '../../shared';
import { same } from '../../shared';
import { coupDifferences } from './coup-diffs';
import { Problems, type RoundEvidence } from './evidence';
import { coupDealtProblems, eventOf, roundEventProblems } from './round-events';

// ---- a round ------------------------------------------------------------------------------------

/** The round's events against its stored item: order, pointers, digests, totals, the coup dealt. */
export function roundChainProblems({ round, log }: RoundEvidence): ReplayProblem[] {
  const p = new Problems();
  const mine = log.ofRound(round.roundId);
  if (mine.length === 0) {
    p.add('EVENT_MISSING', `round ${round.roundId} has no events in the shoe's audit chain`);
    return p.list;
  }
  p.addAll(roundEventProblems(round, mine));
  const closed = eventOf(mine, 'BETTING_CLOSED')?.event;
  if (closed && closed.data.betsDigest !== round.betsDigest) {
    p.add(
      'ROUND_MISMATCH',
      "the round item's bets digest differs from the one BETTING_CLOSED committed",
      closed.seq,
    );
  }
  p.addAll(coupDealtProblems(round, mine));
  const settled = eventOf(mine, 'ROUND_SETTLED')?.event;
  if (
    settled &&
    (settled.data.settlementsDigest !== round.settlementsDigest ||
      settled.data.positions !== round.totals?.positions)
  ) {
    p.add(
      'ROUND_MISMATCH',
      "the round item's settlements digest or position count differ from ROUND_SETTLED",
      settled.seq,
    );
  }
  const voided = eventOf(mine, 'ROUND_VOIDED')?.event;
  if (
    voided &&
    (voided.data.refundsDigest !== round.refundsDigest || voided.data.reason !== round.voidReason)
  ) {
    p.add(
      'ROUND_MISMATCH',
      "the round item's void reason or refunds digest differ from ROUND_VOIDED",
      voided.seq,
    );
  }
  if (voided && !sameBurn(voided.data.burned, round.burned)) {
    p.add(
      'ROUND_MISMATCH',
      "the round item's burned cards differ from the ones ROUND_VOIDED recorded (a dealer-error void)",
      voided.seq,
    );
  }
  return p.list;
}

/** ROUND_VOIDED's `burned` against the round item's (both absent when the void burned nothing). */
function sameBurn(recorded: unknown, burned: RoundRecord['burned']): boolean {
  if (recorded === undefined || burned === undefined) return recorded === burned;
  const r = recorded as { start?: unknown; cards?: unknown };
  return r.start === burned.start && same(r.cards, burned.cards);
}

/** A dealer-error void's burned cards against the ones the re-dealt shoe burns there (once revealed). */
export function burnProblems({ round, reveal }: RoundEvidence): ReplayProblem[] {
  const burned = round.burned;
  const dealt = reveal.status === 'REVEALED' ? reveal.shoe : undefined;
  if (!burned || !dealt) return [];
  const p = new Problems();
  const seq = round.audit.voided ?? null;
  const expected = dealt.burns.get(round.roundId);
  if (!expected) {
    p.add('COUP_POSITION', 'the re-dealt shoe burns no coup for this round (its chain records no burn)', seq);
    return p.list;
  }
  if (expected.start !== burned.start) {
    p.add(
      'COUP_POSITION',
      `after the burn and the coups before it, the burned coup starts at shoe position ${expected.start}; the round records ${burned.start}`,
      seq,
    );
  }
  if (!same(expected.cards, burned.cards)) {
    p.add(
      'CARDS_MISMATCH',
      `the coup at shoe position ${expected.start} burns ${cardsText(expected.cards)}, the round records ${cardsText(burned.cards)}`,
      seq,
    );
  }
  if (expected.cutCardOut !== burned.cutCardOut || expected.last !== burned.last) {
    p.add(
      'COUP_MISMATCH',
      `cut card out ${expected.cutCardOut} and last ${expected.last} by the seeds, recorded ${burned.cutCardOut} and ${burned.last}`,
      seq,
    );
  }
  return p.list;
}

/** The coup the engine deals from the recorded cards (undefined if they are not a whole coup). */
export function engineCoup(round: RoundRecord): { result?: CoupResult; error?: string } {
  if (!round.coup) return {};
  try {
    return { result: playCoup(dealtCards(round.coup.result)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The recorded cards, played by the rules, give the recorded steps and outcome. */
export function tableauProblems({ round }: RoundEvidence): ReplayProblem[] {
  if (!round.coup) return [];
  const p = new Problems();
  const { result, error } = engineCoup(round);
  const seq = round.audit.dealt ?? null;
  if (!result) {
    p.add('TABLEAU_MISMATCH', `the recorded cards are not a whole coup: ${error}`, seq);
  } else {
    const diffs = coupDifferences(result, round.coup.result);
    if (diffs.length > 0)
      p.add(
        'TABLEAU_MISMATCH',
        `the recorded cards, played by the rules, give another coup: ${diffs.join('; ')}`,
        seq,
      );
  }
  return p.list;
}

/** The round's coup against the one the re-dealt shoe deals at its index (once revealed). */
export function coupProblems({ round, reveal }: RoundEvidence): ReplayProblem[] {
  const coup = round.coup;
  const dealt = reveal.status === 'REVEALED' ? reveal.shoe : undefined;
  if (!coup || !dealt) return [];
  const p = new Problems();
  const seq = round.audit.dealt ?? null;
  const expected = dealt.coups[coup.index];
  if (!expected) {
    p.add(
      'COUP_POSITION',
      `the re-dealt shoe has ${dealt.coups.length} coups; there is no coup #${coup.index + 1}`,
      seq,
    );
    return p.list;
  }
  if (expected.start !== coup.start) {
    p.add(
      'COUP_POSITION',
      `after the burn and the coups before it, coup #${coup.index + 1} starts at shoe position ${expected.start}; the round records ${coup.start}`,
      seq,
    );
  }
  const want = Array.from(dealt.order.subarray(expected.start, expected.start + expected.result.cardsUsed));
  const got = dealtCards(coup.result);
  const at = want.findIndex((c, i) => c !== got[i]);
  if (at >= 0 || want.length !== got.length) {
    const i = at >= 0 ? at : Math.min(want.length, got.length);
    p.add(
      'CARDS_MISMATCH',
      `shoe position ${expected.start + i}: the shoe deals ${want[i] === undefined ? '(none)' : showCard(want[i])}, the round records ${got[i] === undefined ? '(none)' : showCard(got[i])} (the shoe deals ${cardsText(want)}, recorded ${cardsText(got)})`,
      seq,
    );
  } else {
    const diffs = coupDifferences(expected.result, coup.result);
    if (diffs.length > 0)
      p.add('COUP_MISMATCH', `the recorded outcome is not the dealt coup's: ${diffs.join('; ')}`, seq);
  }
  if (expected.cutCardOut !== coup.cutCardOut || expected.last !== coup.last) {
    p.add(
      'COUP_MISMATCH',
      `cut card out ${expected.cutCardOut} and last coup ${expected.last} by the seeds, recorded ${coup.cutCardOut} and ${coup.last}`,
      seq,
    );
  }
  return p.list;
}
