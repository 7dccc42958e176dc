/**
 * The audit checker: the one implementation of every check of a shoe's stored trail, each problem code
 * made in one place. Each check re-derives what a round should be from something the operator cannot
 * rewrite unnoticed — the signed statement, the hash chain, the engine's rules, the revealed seed —
 * and names what differs.
 *
 * Two readers run it: the round replay (`verifyRound`: one round, its checks grouped in a verification
 * block, PENDING_REVEAL until the shoe is closed) and checkShoeChain (every round of a shoe, the
 * shoe-level checks once). The problem producers below are what both call.
 */
import { cardsText, dealtCards, showCard } from '@pyb/engine';
import { betsDigest } from '@pyb/fairness';
import type { CheckStatus, ReplayCheck, ReplayProblem, RoundRecord, RoundVerification } from '../../shared';
import { staleHeads } from '../../shoes';
import { checkChainPrefix, recordedPositions, totalsOf } from '../../trail';
import { Problems, type RoundEvidence } from './evidence';
import { betsProblems, rulesCoup, settlementProblems, voiding } from './money-checks';
import { burnProblems, coupProblems, roundChainProblems, tableauProblems } from './round-checks';
import { eventOf } from './round-events';
import { dealProblems, headProblems, statementProblems, wholeChainProblems } from './shoe-checks';

const checked = (problems: readonly ReplayProblem[], passed: string): ReplayCheck => {
  const p = new Problems();
  p.addAll(problems);
  return p.check(passed);
};

const other = (status: CheckStatus, detail: string): ReplayCheck => ({ status, detail, problems: [] });

/** Asynchronous because signatures are: the P-256 curve is loaded on the first (`verifyDerSignature`). */
export async function verifyRound(e: RoundEvidence): Promise<RoundVerification> {
  const checks = {
    statementSignature: await statementCheck(e),
    commitment: commitmentCheck(e),
    cards: cardsCheck(e),
    tableau: tableauCheck(e),
    auditChain: chainCheck(e),
    bets: betsCheck(e),
    settlement: settlementCheck(e),
    chainHead: await headCheck(e),
  };
  const entries = Object.entries(checks) as [keyof typeof checks, ReplayCheck][];
  const pendingReveal = entries.filter(([, c]) => c.status === 'PENDING_REVEAL').map(([name]) => name);
  const failed = entries.some(([, c]) => c.status === 'FAILED');
  return {
    // An abandoned shoe (its chain broke at close, an admin gave it up) never verifies, whatever passes.
    status:
      e.shoe.status === 'ABANDONED'
        ? 'ABANDONED'
        : failed
          ? 'FAILED'
          : pendingReveal.length > 0
            ? 'PENDING_REVEAL'
            : 'VERIFIED',
    ...checks,
    pendingReveal,
  };
}

/** Every check of one round, shoe-level ones included (checkShoeChain runs those once per shoe). */
export const roundProblems = (e: RoundEvidence): ReplayProblem[] => [
  ...roundChainProblems(e),
  ...tableauProblems(e),
  ...coupProblems(e),
  ...betsProblems(e),
  ...settlementProblems(e),
];

// ---- the replay's verification block: the same problems, grouped, with what passed ----------------

async function statementCheck(e: RoundEvidence): Promise<ReplayCheck> {
  const { shoe } = e;
  return checked(
    await statementProblems(e, e.round),
    `ECDSA P-256/SHA-256 signature by ${shoe.statement.keyId} of the RFC 8785 statement is valid; SHOE_OPENED published it (commitment ${shoe.commitment}) at ${shoe.statement.createdAt}, before any bet`,
  );
}

function commitmentCheck({ shoe, reveal }: RoundEvidence): ReplayCheck {
  if (reveal.status === 'PENDING') {
    return other(
      'PENDING_REVEAL',
      `the server seed stays sealed until the shoe is closed; then SHA-256(seed) must equal ${shoe.commitment}`,
    );
  }
  return checked(
    reveal.seed,
    `the revealed seed hashes to the commitment ${shoe.commitment} published before any bet, and SHOE_CLOSED revealed the same seed`,
  );
}

const notDealt = (round: RoundRecord) =>
  other('NOT_APPLICABLE', round.status === 'VOIDED' ? 'voided: no card was dealt' : 'not dealt yet');

function tableauCheck(e: RoundEvidence): ReplayCheck {
  const coup = e.round.coup;
  if (!coup) return notDealt(e.round);
  const r = coup.result;
  return checked(
    tableauProblems(e),
    `the ${r.cardsUsed} cards dealt (${cardsText(dealtCards(r))}), played by the rules (naturals, Punto's rule, Banca's tableau), give exactly the recorded steps: ${r.winner} ${r.player.total}-${r.banker.total}`,
  );
}

function cardsCheck(e: RoundEvidence): ReplayCheck {
  const { round, reveal } = e;
  const coup = round.coup;
  if (!coup && round.burned) return burnedCardsCheck(e, round.burned);
  if (!coup) return notDealt(round);
  const positions = `${coup.start}..${coup.start + coup.result.cardsUsed - 1}`;
  if (reveal.status === 'PENDING') {
    return other(
      'PENDING_REVEAL',
      `the cards at shoe positions ${positions} are checked against the shoe re-dealt from the seeds once the shoe is closed`,
    );
  }
  const dealt = reveal.shoe;
  const expected = dealt?.coups[coup.index];
  const want = expected
    ? dealt!.order.subarray(expected.start, expected.start + expected.result.cardsUsed)
    : [];
  return checked(
    [...dealProblems(e), ...coupProblems(e)],
    dealt
      ? `re-dealt from the revealed server seed, the shoe entropy ${dealt.entropy} (contributed seeds and beacon round) and the shoe id: burn ${showCard(dealt.burn.shown)} + ${dealt.burn.burned}, coup #${coup.index + 1} at positions ${positions} deals ${cardsText(Array.from(want))}, as recorded`
      : '',
  );
}

/** A dealer-error void: the cards it burned are the ones the re-dealt shoe burns there. */
function burnedCardsCheck(e: RoundEvidence, burned: NonNullable<RoundRecord['burned']>): ReplayCheck {
  const positions = `${burned.start}..${burned.start + burned.cards.length - 1}`;
  if (e.reveal.status === 'PENDING') {
    return other(
      'PENDING_REVEAL',
      `voided for a dealer error (${e.round.voidReason}): the cards burned at shoe positions ${positions} are checked against the shoe re-dealt from the seeds once the shoe is closed`,
    );
  }
  return checked(
    [...dealProblems(e), ...burnProblems(e)],
    `voided for a dealer error (${e.round.voidReason}): the coup at shoe positions ${positions} burned unplayed, ${cardsText(burned.cards)}, as the re-dealt shoe burns it`,
  );
}

function chainCheck(e: RoundEvidence): ReplayCheck {
  const { shoe, round, log } = e;
  const mine = log.ofRound(round.roundId);
  const last = mine.at(-1);
  const prefix = last ? checkChainPrefix(log, shoe.shoeId, shoe.commitment, log.events.indexOf(last)) : [];
  return checked(
    [...prefix, ...roundChainProblems(e)],
    last
      ? `${log.events.indexOf(last) + 1} events linked from the genesis (the commitment) to event ${last.record.seq}; this round's: ${mine.map((x) => `${x.record.type} #${x.record.seq}`).join(', ')}, each matching the stored round`
      : '',
  );
}

function betsCheck(e: RoundEvidence): ReplayCheck {
  const { round, positions, log, shoe } = e;
  const problems = betsProblems(e);
  const closed = eventOf(log.ofRound(round.roundId), 'BETTING_CLOSED')?.event;
  if (!closed && problems.length === 0) {
    return other('NOT_APPLICABLE', voiding(round) ? 'voided before betting closed' : 'betting is still open');
  }
  const stake = positions.reduce((s, x) => s + x.stake, 0);
  return checked(
    problems,
    `${positions.length} position(s), ${stake} staked: the bets committed at "no va más" (digest ${betsDigest(recordedPositions(positions), shoe.digestSalt)}, event ${closed?.seq})`,
  );
}

function settlementCheck(e: RoundEvidence): ReplayCheck {
  const { round, positions, log } = e;
  if (voiding(round)) {
    return checked(
      settlementProblems(e),
      `voided (${round.voidReason ?? 'no reason'}): every stake refunded, ${positions.reduce((s, x) => s + x.stake, 0)} in all`,
    );
  }
  const rules = rulesCoup(e);
  if (!rules) return other('NOT_APPLICABLE', 'not dealt yet');
  const settled = eventOf(log.ofRound(round.roundId), 'ROUND_SETTLED')?.event;
  const t = totalsOf(positions);
  return checked(
    settlementProblems(e),
    `${positions.length} position(s) settled as the engine settles them against ${rules.revealed ? 'the coup re-dealt from the seeds' : 'the recorded cards'} (${rules.coup.winner}): stake ${t.stake}, paid ${t.payout}, commission ${t.commission}, owed ${t.commissionOwed}${settled ? '; committed by ROUND_SETTLED' : '; settlement under way'}`,
  );
}

/**
 * Every signed head the replay has — the contributions' close and this round's, open shoe or not — must
 * still name the chain's event at its seq: a chain rewritten and relinked after a head was signed
 * (consistent hashes, so the chain itself checks out) fails here, before the close as after it.
 */
function signedHeadProblems({ shoe, round, log }: RoundEvidence): ReplayProblem[] {
  const records = log.events.map((p) => p.record);
  return staleHeads(shoe, [round], records).map((x) => ({
    code: 'HEAD_MISMATCH',
    detail: x.detail,
    seq: x.seq,
    playerId: null,
  }));
}

async function headCheck(e: RoundEvidence): Promise<ReplayCheck> {
  const { shoe, round } = e;
  const stale = signedHeadProblems(e);
  if (shoe.status !== 'CLOSED') {
    if (stale.length > 0) return checked(stale, '');
    const heads = (shoe.contributionsClosed?.head ? 1 : 0) + (round.head ? 1 : 0);
    return other(
      'PENDING_REVEAL',
      `the ${heads} signed head(s) so far still name the chain's events; the whole chain head is signed when the shoe is closed (with the reveal)`,
    );
  }
  const close = shoe.close;
  const rotated = close !== undefined && close.statement.keyId !== shoe.statement.keyId;
  return checked(
    [...wholeChainProblems(e), ...stale, ...(await headProblems(e))],
    close
      ? `the chain head ${close.statement.head} over ${close.statement.length} events, signed at close (${close.statement.closedAt}) by ${close.statement.keyId}${rotated ? ' (the key that replaced the statement’s)' : ''}, verifies`
      : '',
  );
}
