/**
 * checkShoeChain: re-walks a shoe's audit trail from the stored items and says where it breaks.
 *
 * - the chain itself: gapless sequence numbers, every link and hash (fairness verifyChain, genesis =
 *   the commitment), each event's stored attributes equal to its hashed JSON;
 * - the signed shoe statement (SHOE_OPENED) and, once closed, the signed chain head and the revealed
 *   seed against the commitment;
 * - per round: its events in order and matching the round item, the bets digest against the stored
 *   positions, the settlements (recomputed with the engine) and their digest, the refunds of a void,
 *   and the ledger entries each position's money moved by;
 * - once the seed is revealed: every coup recomputed from the shoe order (fairness dealShoe + engine).
 */

import { betList, nextCoup, type ShoeState, settle, startShoe } from '@pyb/engine';
import {
  base64ToBytes,
  betsDigest,
  closeStatementBytes,
  commitmentOf,
  dealShoe,
  hexToBytes,
  isHex,
  refundsDigest,
  settlementsDigest,
  statementBytes,
  verifyChain,
  verifyDerSignature,
} from '@pyb/fairness';
import type { Actor } from '../actor';
import type { ChainProblem, ChainReport } from '../api';
import { coupDealtProblems, eventOf, type RoundProblem, roundEventProblems } from '../audit-round-checks';
import type { PositionRecord, RoundRecord, ShoeRecord } from '../model';
import { recordedPositions } from '../recorded';
import { chainLinks, type ParsedEvent, parseAuditLog, roundOf } from '../replay/audit-log';
import { type KeyLookup, SigningKeys, verifiedWith } from '../replay/signing-keys';
import { mapBounded } from '../retry';
import { same } from '../same-json';
import type { Ctx } from './context';
import { loadShoe } from './shoes';

export async function checkShoeChain(
  ctx: Ctx,
  actor: Actor,
  input: { shoeId: string },
): Promise<ChainReport> {
  const shoe = await loadShoe(ctx, actor, input.shoeId, 'read');
  const problems: ChainProblem[] = [];
  const problem = (roundId: string | null | undefined, seq: number | null, code: string, detail: string) =>
    problems.push({ roundId: roundId ?? null, seq, code, detail });

  const records = await ctx.store.listAudit(shoe.shoeId);
  const log = parseAuditLog(records);
  const parsed = log.events;
  for (const { record, event } of parsed) {
    if (!event) problem(record.roundId, record.seq, 'EVENT_UNREADABLE', `event ${record.seq} is not JSON`);
  }

  parsed.forEach((p, index) => {
    const { record, event } = p;
    if (record.seq !== index) {
      problem(roundOf(p), record.seq, 'CHAIN_GAP', `event #${index} has sequence number ${record.seq}`);
    }
    if (
      event &&
      (event.seq !== record.seq ||
        event.type !== record.type ||
        event.shoeId !== shoe.shoeId ||
        (event.roundId ?? null) !== (record.roundId ?? null))
    ) {
      problem(
        roundOf(p),
        record.seq,
        'EVENT_MISMATCH',
        `event ${record.seq}: stored attributes differ from the hashed event`,
      );
    }
  });
  const verdict = verifyChain(chainLinks(parsed), shoe.commitment);
  if (!verdict.ok) {
    const p = parsed[verdict.index]!;
    problem(roundOf(p), p.record.seq, `CHAIN_${verdict.reason}`, verdict.detail);
  }

  // Each signature with the key it names: a key rotation since leaves older shoes verifiable.
  const signingKeys = new SigningKeys(ctx.keys);
  checkOpening(shoe, parsed[0], await signingKeys.get(shoe.statement.keyId), problem);

  // Rounds, as the chain lists them (ROUND_OPENED), and as the index lists them.
  const byRound = log.rounds;
  for (const r of await ctx.store.listRounds(shoe.shoeId)) {
    if (!byRound.has(r.roundId))
      problem(r.roundId, null, 'ROUND_NOT_IN_CHAIN', `round ${r.roundId} has no events in the chain`);
  }
  const rounds = new Map<string, { round: RoundRecord; positions: PositionRecord[] }>();
  // Rounds are independent: checked a few at a time, their problems reported in chain order.
  const perRound = await mapBounded([...byRound], 8, async ([roundId, events]) => {
    const found: ChainProblem[] = [];
    const report: Report = (r, seq, code, detail) => found.push({ roundId: r ?? null, seq, code, detail });
    const round = await ctx.store.get('round', { roundId });
    if (!round || round.shoeId !== shoe.shoeId) {
      report(
        roundId,
        events[0]!.record.seq,
        'ROUND_MISSING',
        `round ${roundId} is in the chain but not stored`,
      );
      return found;
    }
    const positions = await ctx.store.listPositions(roundId);
    rounds.set(roundId, { round, positions });
    await checkRound(ctx, shoe, round, positions, events, report);
    return found;
  });
  problems.push(...perRound.flat());

  let coupsVerified = false;
  const closing = parsed.at(-1);
  if (shoe.status === 'CLOSED') {
    const closeKey = shoe.close ? await signingKeys.get(shoe.close.statement.keyId) : undefined;
    coupsVerified = checkClosed(shoe, parsed, closing, closeKey, rounds, problem);
  }
  return {
    shoeId: shoe.shoeId,
    ok: problems.length === 0,
    events: records.length,
    head: records.at(-1)?.hash ?? null,
    rounds: byRound.size,
    coupsVerified,
    problems,
  };
}

type Report = (roundId: string | null | undefined, seq: number | null, code: string, detail: string) => void;

function checkOpening(
  shoe: ShoeRecord,
  first: ParsedEvent | undefined,
  key: KeyLookup,
  problem: Report,
): void {
  const event = first?.event;
  if (event?.type !== 'SHOE_OPENED') {
    problem(null, 0, 'EVENT_MISSING', 'the chain does not start with SHOE_OPENED');
    return;
  }
  const data = event.data as { statement?: unknown; signature?: string };
  if (!same(data.statement, shoe.statement) || data.signature !== shoe.signature) {
    problem(null, 0, 'STATEMENT_MISMATCH', 'the statement in the chain differs from the shoe record');
  }
  if (shoe.statement.commitment !== shoe.commitment) {
    problem(null, 0, 'STATEMENT_MISMATCH', 'the statement commits to another seed');
  }
  if (shoe.statement.keyId !== shoe.keyId) {
    problem(null, 0, 'STATEMENT_MISMATCH', 'the shoe record names another key than its signed statement');
  }
  if (
    verifiedWith(
      key,
      'the shoe statement',
      (spki) => verifyDerSignature(statementBytes(shoe.statement), base64ToBytes(shoe.signature), spki),
      (detail) => problem(null, 0, 'SIGNING_KEY_UNKNOWN', detail),
    ) === false
  ) {
    problem(null, 0, 'STATEMENT_SIGNATURE', 'the shoe statement signature does not verify');
  }
}

async function checkRound(
  ctx: Ctx,
  shoe: ShoeRecord,
  round: RoundRecord,
  positions: PositionRecord[],
  events: ParsedEvent[],
  problem: Report,
): Promise<void> {
  const id = round.roundId;
  const report = (x: RoundProblem) => problem(id, x.seq, x.code, x.detail);
  roundEventProblems(round, events).forEach(report);
  const closed = eventOf(events, 'BETTING_CLOSED')?.event;
  if (closed) {
    const recomputed = betsDigest(recordedPositions(positions));
    if (closed.data.betsDigest !== recomputed || round.betsDigest !== recomputed) {
      problem(
        id,
        closed.seq,
        'BETS_DIGEST',
        `round ${id}: the stored bets do not match the digest committed at betting close`,
      );
    }
  }
  coupDealtProblems(round, events).forEach(report);
  const settledEvent = eventOf(events, 'ROUND_SETTLED')?.event;
  if (settledEvent) {
    const recomputed = settlementsDigest(recordedPositions(positions));
    if (settledEvent.data.settlementsDigest !== recomputed || round.settlementsDigest !== recomputed) {
      problem(
        id,
        settledEvent.seq,
        'SETTLEMENTS_DIGEST',
        `round ${id}: the stored settlements do not match ROUND_SETTLED`,
      );
    }
  }
  const voided = eventOf(events, 'ROUND_VOIDED')?.event;
  if (voided) {
    const recomputed = refundsDigest(recordedPositions(positions, true));
    if (
      voided.data.refundsDigest !== recomputed ||
      round.refundsDigest !== recomputed ||
      voided.data.reason !== round.voidReason
    ) {
      problem(id, voided.seq, 'REFUNDS_DIGEST', `round ${id}: the stored refunds do not match ROUND_VOIDED`);
    }
  }
  await Promise.all(positions.map((p) => checkPosition(ctx, shoe, round, p, problem)));
}

/** The position's money: recomputed settlement, and the ledger entries that moved it. */
async function checkPosition(
  ctx: Ctx,
  shoe: ShoeRecord,
  round: RoundRecord,
  p: PositionRecord,
  problem: Report,
) {
  const id = round.roundId;
  const wallet = { operatorId: round.operatorId, playerId: p.playerId };
  let staked = 0;
  const bets = await Promise.all(p.betKeys.map((key) => ctx.store.get('ledger', { ...wallet, key })));
  for (const [i, key] of p.betKeys.entries()) {
    const entry = bets[i];
    if (entry?.kind !== 'BET' || entry.roundId !== id) {
      problem(
        id,
        null,
        'LEDGER_MISMATCH',
        `round ${id}: bet ${key} of ${p.playerId} has no matching ledger entry`,
      );
    } else staked -= entry.amount;
  }
  if (staked !== p.stake)
    problem(
      id,
      null,
      'LEDGER_MISMATCH',
      `round ${id}: ${p.playerId} staked ${p.stake} but the ledger says ${staked}`,
    );
  if (p.settledAt) {
    const expected = round.coup ? settle(shoe.config, betList(p.bets), round.coup.result) : undefined;
    if (!expected || !same(expected, p.settlement)) {
      problem(
        id,
        null,
        'SETTLEMENT_MISMATCH',
        `round ${id}: the settlement of ${p.playerId} is not what the rules give`,
      );
    }
    const entry = await ctx.store.get('ledger', { ...wallet, key: `s:settle#${id}#${p.playerId}` });
    const moved = entry ? entry.amount : 0;
    if (moved !== (p.settlement?.payout ?? 0) || (entry?.seq ?? undefined) !== p.settleSeq) {
      problem(
        id,
        null,
        'LEDGER_MISMATCH',
        `round ${id}: the payout of ${p.playerId} and its ledger entry differ`,
      );
    }
  }
  if (p.refundedAt) {
    const entry = await ctx.store.get('ledger', { ...wallet, key: `s:refund#${id}#${p.playerId}` });
    if (!entry || entry.amount !== p.stake || entry.seq !== p.refundSeq) {
      problem(
        id,
        null,
        'LEDGER_MISMATCH',
        `round ${id}: the refund of ${p.playerId} and its ledger entry differ`,
      );
    }
  }
}

function checkClosed(
  shoe: ShoeRecord,
  parsed: ParsedEvent[],
  closing: ParsedEvent | undefined,
  closeKey: KeyLookup | undefined,
  rounds: Map<string, { round: RoundRecord }>,
  problem: Report,
): boolean {
  const event = closing?.event;
  if (!closing || event?.type !== 'SHOE_CLOSED') {
    problem(null, closing?.record.seq ?? null, 'EVENT_MISSING', 'a closed shoe must end with SHOE_CLOSED');
    return false;
  }
  const close = shoe.close;
  if (
    !close ||
    close.statement.head !== closing.record.hash ||
    close.statement.length !== parsed.length ||
    close.statement.commitment !== shoe.commitment ||
    verifiedWith(
      closeKey ?? { keyId: close.statement.keyId, key: undefined },
      'the close statement',
      (spki) =>
        verifyDerSignature(closeStatementBytes(close.statement), base64ToBytes(close.signature), spki),
      (detail) => problem(null, event.seq, 'SIGNING_KEY_UNKNOWN', detail),
    ) === false
  ) {
    problem(
      null,
      event.seq,
      'HEAD_SIGNATURE',
      'the signed chain head does not match the chain or does not verify',
    );
  }
  const seedHex = event.data.serverSeed;
  if (
    typeof seedHex !== 'string' ||
    !isHex(seedHex, 32) ||
    commitmentOf(hexToBytes(seedHex)) !== shoe.commitment
  ) {
    problem(null, event.seq, 'SEED_COMMITMENT', 'the revealed seed does not match the commitment');
    return false;
  }
  if (!shoe.clientSeed) return true;
  const deck = dealShoe({
    serverSeed: hexToBytes(seedHex),
    clientSeed: shoe.clientSeed,
    shoeId: shoe.shoeId,
    decks: shoe.config.decks,
    cutCard: shoe.config.cutCard,
  });
  // Replay every coup in chain order from the shoe order.
  let state: ShoeState = startShoe(deck.order);
  for (const p of parsed) {
    if (p.event?.type !== 'COUP_DEALT') continue;
    const roundId = p.event.roundId ?? null;
    if (state.finished) {
      problem(
        roundId,
        p.event.seq,
        'COUP_MISMATCH',
        `round ${roundId}: a coup was dealt after the shoe ended`,
      );
      return true;
    }
    const coup = nextCoup(shoe.config, deck.order, deck.cutIndex, state);
    const stored = roundId ? rounds.get(roundId)?.round.coup : undefined;
    if (
      !same(p.event.data.coup, coup.result) ||
      p.event.data.start !== coup.start ||
      p.event.data.last !== coup.last ||
      !stored ||
      !same(stored.result, coup.result)
    ) {
      problem(
        roundId,
        p.event.seq,
        'COUP_MISMATCH',
        `round ${roundId}: the coup is not the one the revealed shoe deals`,
      );
    }
    state = coup.state;
  }
  return true;
}
