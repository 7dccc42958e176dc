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

import {
  BET_TYPES,
  betList,
  type CoupResult,
  cardsText,
  dealtCards,
  playCoup,
  settle,
  showCard,
  type TableConfig,
  worstCaseCommission,
} from '@pyb/engine';
import {
  betsDigest,
  closeStatementBytes,
  refundsDigest,
  settlementsDigest,
  statementBytes,
  verifyBase64Signature,
} from '@pyb/fairness';
import type {
  CheckStatus,
  PositionRecord,
  ReplayCheck,
  ReplayProblem,
  RoundRecord,
  RoundVerification,
  ShoeRecord,
} from '../../shared';
import { same } from '../../shared';
import { type AuditLog, checkChainPrefix, recordedPositions, totalsOf } from '../../trail';
import { coupDifferences } from './coup-diffs';
import { callsProblem, type PositionLedger, stakedByType } from './ledger';
import type { Reveal } from './revealed';
import { coupDealtProblems, eventOf, roundEventProblems } from './round-events';
import { type KeyLookup, verifiedWith } from './signing-keys';

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

class Problems {
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
    status: failed ? 'FAILED' : pendingReveal.length > 0 ? 'PENDING_REVEAL' : 'VERIFIED',
    ...checks,
    pendingReveal,
  };
}

// ---- the shoe: its signed statement, its reveal, its signed head ---------------------------------

/**
 * The signed statement: its signature by the key it names, the shoe record and the chain's
 * SHOE_OPENED agreeing with it, and naming the shoe, the table and the operator `of` (the round's).
 */
export async function statementProblems(
  { shoe, log, keys }: ShoeEvidence,
  of: { tableId: string; operatorId: string } = shoe,
): Promise<ReplayProblem[]> {
  const p = new Problems();
  const { statement } = shoe;
  const valid = await verifiedWith(
    keys.statement,
    'the shoe statement',
    (spki) => verifyBase64Signature(statementBytes(statement), shoe.signature, spki),
    (detail) => p.add('SIGNING_KEY_UNKNOWN', detail),
  );
  if (valid === false) {
    p.add(
      'STATEMENT_SIGNATURE',
      `the shoe statement's signature does not verify with key ${statement.keyId}, the key it names: the statement or its signature was altered`,
    );
  }
  if (shoe.keyId !== statement.keyId) {
    p.add(
      'STATEMENT_MISMATCH',
      `the shoe record names key ${shoe.keyId}, its signed statement ${statement.keyId}`,
    );
  }
  if (
    statement.shoeId !== shoe.shoeId ||
    statement.operatorId !== of.operatorId ||
    statement.tableId !== of.tableId ||
    statement.commitment !== shoe.commitment
  ) {
    p.add('STATEMENT_MISMATCH', 'the signed statement names another shoe, table, operator or commitment');
  }
  if (!same(statement.table, shoe.config)) {
    p.add('CONFIG_MISMATCH', "the shoe's table configuration differs from the one its statement signed");
  }
  const opened = log.events[0];
  const data = opened?.event?.data as { statement?: unknown; signature?: unknown } | undefined;
  if (opened?.event?.type !== 'SHOE_OPENED') {
    p.add('EVENT_MISSING', "the shoe's audit chain does not start with SHOE_OPENED", 0);
  } else if (!same(data?.statement, statement) || data?.signature !== shoe.signature) {
    p.add(
      'STATEMENT_MISMATCH',
      'the statement published in the chain (SHOE_OPENED) differs from the shoe record',
      opened.record.seq,
    );
  }
  return p.list;
}

/** The shoe re-dealt from the revealed seeds: what stops it, and its burn against the recorded one. */
export function dealProblems({ shoe, reveal }: ShoeEvidence): ReplayProblem[] {
  if (reveal.status === 'PENDING') return [];
  const p = new Problems();
  p.addAll(reveal.deal);
  const dealt = reveal.shoe;
  if (!dealt) {
    // Without a re-dealt shoe: either a problem above says why, or the shoe was never played.
    if (p.list.length === 0 && reveal.seed.length > 0)
      p.add('SHOE_NOT_RECOMPUTED', 'the shoe cannot be re-dealt: the revealed seed is not the committed one');
    return p.list;
  }
  if (shoe.burn && (shoe.burn.shown !== dealt.burn.shown || shoe.burn.burned !== dealt.burn.burned)) {
    p.add(
      'BURN_MISMATCH',
      `the seeds burn ${showCard(dealt.burn.shown)} shown and ${dealt.burn.burned} burned, the shoe records ${showCard(shoe.burn.shown)} and ${shoe.burn.burned}`,
    );
  }
  return p.list;
}

/** The chain head signed at close: over the whole chain, by the key the close statement names. */
export async function headProblems({ shoe, log, keys }: ShoeEvidence): Promise<ReplayProblem[]> {
  const p = new Problems();
  const close = shoe.close;
  const events = log.events;
  if (!close) {
    p.add('HEAD_SIGNATURE', 'the shoe is closed but has no signed chain head');
    return p.list;
  }
  const head = events.at(-1)?.record.hash;
  if (
    close.statement.head !== head ||
    close.statement.length !== events.length ||
    close.statement.commitment !== shoe.commitment ||
    close.statement.shoeId !== shoe.shoeId
  ) {
    p.add(
      'HEAD_MISMATCH',
      `the signed head covers ${close.statement.length} events ending ${close.statement.head}; the chain has ${events.length} ending ${head ?? '(none)'}`,
    );
  }
  // The shoe's evidence looked up the key this close statement names.
  const lookup = keys.close ?? { keyId: close.statement.keyId, key: undefined };
  const valid = await verifiedWith(
    lookup,
    'the close statement',
    (spki) => verifyBase64Signature(closeStatementBytes(close.statement), close.signature, spki),
    (detail) => p.add('SIGNING_KEY_UNKNOWN', detail),
  );
  if (valid === false)
    p.add(
      'HEAD_SIGNATURE',
      `the signature of the chain head does not verify with key ${close.statement.keyId}, the key it names`,
    );
  return p.list;
}

/** The whole chain, from its genesis (the commitment) to its last event. */
export const wholeChainProblems = ({ shoe, log }: ShoeEvidence): ReplayProblem[] =>
  checkChainPrefix(log, shoe.shoeId, shoe.commitment, log.events.length - 1);

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
function engineCoup(round: RoundRecord): { result?: CoupResult; error?: string } {
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

/** The stored bets: their stakes, their calls in the ledger, and the digest BETTING_CLOSED committed. */
export function betsProblems({ round, positions, log, ledgers, shoe }: RoundEvidence): ReplayProblem[] {
  const p = new Problems();
  for (const pos of positions) {
    const sum = betList(pos.bets).reduce((s, b) => s + b.amount, 0);
    if (sum !== pos.stake) {
      p.add(
        'STAKE_MISMATCH',
        `${pos.playerId}: the bets add up to ${sum}, the position records a stake of ${pos.stake}`,
        null,
        pos.playerId,
      );
    }
    const ledger = ledgers.get(pos.playerId);
    if (!ledger) continue;
    const debited = stakedByType(ledger.bets);
    for (const type of BET_TYPES) {
      if ((debited[type] ?? 0) !== (pos.bets[type] ?? 0)) {
        p.add(
          'BETS_MISMATCH',
          `${pos.playerId}: the position holds ${type} ${pos.bets[type] ?? 0}, the bet calls in the ledger ${debited[type] ?? 0}`,
          null,
          pos.playerId,
        );
      }
    }
    const problem = callsProblem(pos, ledger.bets);
    if (problem) p.add('LEDGER_MISMATCH', `${pos.playerId}: ${problem}`, null, pos.playerId);
    if (pos.wallet === 'seamless') {
      // Its debits reserved, on top of the stakes, exactly the worst-case commission of its Banca bet.
      const reserved = ledger.bets.at(-1)?.reservedAfter ?? 0;
      const worst = worstCaseCommission(shoe.statement.table as TableConfig, betList(pos.bets));
      if (reserved !== pos.reserve || pos.reserve !== worst) {
        p.add(
          'LEDGER_MISMATCH',
          `${pos.playerId}: the debits reserved ${reserved} for commission, the position ${pos.reserve}; the rules' worst case is ${worst}`,
          null,
          pos.playerId,
        );
      }
    }
  }
  const closed = eventOf(log.ofRound(round.roundId), 'BETTING_CLOSED')?.event;
  if (!closed) return p.list;
  const recomputed = betsDigest(recordedPositions(positions));
  if (closed.data.betsDigest !== recomputed) {
    p.add(
      'BETS_DIGEST',
      `the stored bets (digest ${recomputed}) are not the bets committed when betting closed (${String(closed.data.betsDigest)})`,
      closed.seq,
    );
  }
  const _stake = positions.reduce((s, x) => s + x.stake, 0);
  if (closed.data.positions !== positions.length) {
    p.add(
      'BETS_TOTAL',
      `BETTING_CLOSED recorded ${String(closed.data.positions)} positions; stored: ${positions.length}`,
      closed.seq,
    );
  }
  return p.list;
}

const voiding = (round: RoundRecord) => round.status === 'VOIDED' || round.status === 'VOIDING';

/** The coup the rules deal: from the re-dealt shoe once revealed, else the recorded cards replayed. */
function rulesCoup(e: RoundEvidence): { coup: CoupResult; revealed: boolean } | undefined {
  const { round, reveal } = e;
  if (!round.coup) return undefined;
  const revealed = reveal.status === 'REVEALED' ? reveal.shoe?.coups[round.coup.index]?.result : undefined;
  return {
    coup: revealed ?? engineCoup(round).result ?? round.coup.result,
    revealed: revealed !== undefined,
  };
}

/** A voided round's refunds: every stake given back once, by its ledger entry, and their digest. */
function refundProblems({ round, positions, log, ledgers }: RoundEvidence): ReplayProblem[] {
  const p = new Problems();
  for (const pos of positions) {
    if (pos.settledAt)
      p.add(
        'SETTLEMENT_MISMATCH',
        `${pos.playerId}: a voided round's position was settled`,
        null,
        pos.playerId,
      );
    if (round.status === 'VOIDED' && !pos.refundedAt)
      p.add(
        'REFUND_MISSING',
        `${pos.playerId}: the round is voided but the stake was not refunded`,
        null,
        pos.playerId,
      );
    const refund = ledgers.get(pos.playerId)?.refund;
    if (
      ledgers.has(pos.playerId) &&
      pos.refundedAt &&
      (refund?.amount !== pos.stake || refund.seq !== pos.refundSeq || refund.kind !== 'REFUND')
    ) {
      p.add(
        'LEDGER_MISMATCH',
        `${pos.playerId}: refunded ${pos.stake}, the ledger refund says ${refund?.amount ?? 'nothing'}`,
        null,
        pos.playerId,
      );
    }
  }
  const voided = eventOf(log.ofRound(round.roundId), 'ROUND_VOIDED')?.event;
  if (voided) {
    const recomputed = refundsDigest(recordedPositions(positions, true));
    if (voided.data.refundsDigest !== recomputed) {
      p.add(
        'REFUNDS_DIGEST',
        `the stored refunds (digest ${recomputed}) are not the ones ROUND_VOIDED committed (${String(voided.data.refundsDigest)})`,
        voided.seq,
      );
    }
  }
  return p.list;
}

/**
 * Each position settled as the engine settles it against the coup the rules deal, paid by its ledger
 * entry, the settlements committed by ROUND_SETTLED and summed in the round's totals; or, for a voided
 * round, the refunds.
 */
export function settlementProblems(e: RoundEvidence): ReplayProblem[] {
  const { round, positions, log, ledgers, shoe } = e;
  if (voiding(round)) return refundProblems(e);
  const rules = rulesCoup(e);
  if (!rules) return [];
  const p = new Problems();
  const table = shoe.statement.table as TableConfig;
  for (const pos of positions) {
    if (!pos.settledAt) {
      if (round.status === 'SETTLED')
        p.add(
          'SETTLEMENT_MISSING',
          `${pos.playerId}: the round is settled but this position is not`,
          null,
          pos.playerId,
        );
      continue;
    }
    const expected = settle(table, betList(pos.bets), rules.coup);
    const stored = pos.settlement;
    const diffs: string[] = [];
    for (const b of expected.bets) {
      const s = stored?.bets.find((x) => x.type === b.type);
      if (!s) diffs.push(`${b.type} not settled`);
      else
        for (const f of ['amount', 'result', 'payout', 'commission', 'commissionOwed'] as const) {
          if (b[f] !== s[f]) diffs.push(`${b.type} ${f}: the rules give ${b[f]}, stored ${s[f]}`);
        }
    }
    if ((stored?.bets.length ?? 0) !== expected.bets.length)
      diffs.push(`${stored?.bets.length ?? 0} bets settled, ${expected.bets.length} placed`);
    for (const f of ['stake', 'payout', 'commission', 'commissionOwed'] as const) {
      if (expected[f] !== stored?.[f])
        diffs.push(`${f}: the rules give ${expected[f]}, stored ${stored?.[f]}`);
    }
    if (diffs.length > 0)
      p.add('SETTLEMENT_MISMATCH', `${pos.playerId}: ${diffs.join('; ')}`, null, pos.playerId);
    const ledger = ledgers.get(pos.playerId);
    if (ledger) {
      const moved = ledger.settle?.amount ?? 0;
      const paid = stored?.payout ?? 0;
      if (
        moved !== paid ||
        ledger.settle?.seq !== pos.settleSeq ||
        (ledger.settle && ledger.settle.kind !== 'PAYOUT')
      ) {
        p.add(
          'LEDGER_MISMATCH',
          `${pos.playerId}: paid ${paid}, the ledger's payout entry credited ${moved}`,
          null,
          pos.playerId,
        );
      }
      // A seamless commission reserve: what the settlement does not owe goes back, by its own credit.
      const release = pos.reserve - expected.commissionOwed;
      if (ledger.released !== undefined && ledger.released !== Math.max(release, 0)) {
        p.add(
          'LEDGER_MISMATCH',
          `${pos.playerId}: a commission reserve of ${pos.reserve} owes ${expected.commissionOwed}, its release credited ${ledger.released}`,
          null,
          pos.playerId,
        );
      }
    }
  }
  const settled = eventOf(log.ofRound(round.roundId), 'ROUND_SETTLED')?.event;
  if (settled) {
    const recomputed = settlementsDigest(recordedPositions(positions));
    if (settled.data.settlementsDigest !== recomputed) {
      p.add(
        'SETTLEMENTS_DIGEST',
        `the stored settlements (digest ${recomputed}) are not the ones ROUND_SETTLED committed (${String(settled.data.settlementsDigest)})`,
        settled.seq,
      );
    }
    if (round.totals && !same(round.totals, totalsOf(positions))) {
      p.add('TOTALS_MISMATCH', "the round's totals are not the sum of its positions", settled.seq);
    }
  }
  return p.list;
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
  const { round, positions, log } = e;
  const problems = betsProblems(e);
  const closed = eventOf(log.ofRound(round.roundId), 'BETTING_CLOSED')?.event;
  if (!closed && problems.length === 0) {
    return other('NOT_APPLICABLE', voiding(round) ? 'voided before betting closed' : 'betting is still open');
  }
  const stake = positions.reduce((s, x) => s + x.stake, 0);
  return checked(
    problems,
    `${positions.length} position(s), ${stake} staked: the bets committed at "no va más" (digest ${betsDigest(recordedPositions(positions))}, event ${closed?.seq})`,
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

async function headCheck(e: RoundEvidence): Promise<ReplayCheck> {
  const { shoe } = e;
  if (shoe.status !== 'CLOSED')
    return other('PENDING_REVEAL', 'the chain head is signed when the shoe is closed (with the reveal)');
  const close = shoe.close;
  const rotated = close !== undefined && close.statement.keyId !== shoe.statement.keyId;
  return checked(
    [...wholeChainProblems(e), ...(await headProblems(e))],
    close
      ? `the chain head ${close.statement.head} over ${close.statement.length} events, signed at close (${close.statement.closedAt}) by ${close.statement.keyId}${rotated ? ' (the key that replaced the statement’s)' : ''}, verifies`
      : '',
  );
}
