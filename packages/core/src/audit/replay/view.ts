/** Stored records -> the replay's shapes (no checks here: see verify.ts). */
import { betList, type CoupResult, coupOutcome, pointValue, showCard, stepCard } from '@pyb/engine';
import type {
  LedgerEntry,
  PositionRecord,
  ReplayBet,
  ReplayCoup,
  ReplayEvent,
  ReplayPosition,
  ReplayShoe,
  ReplayStep,
  RoundCoup,
  ShoeRecord,
} from '../../shared';
import type { ParsedEvent } from '../../trail';
import type { KeyLookup } from './signing-keys';

const shown = (lookup: KeyLookup | undefined) =>
  lookup?.key ? { keyId: lookup.key.keyId, pem: lookup.key.pem } : null;

/** Never the sealed seed; the server seed and the cut index only once the shoe is closed. */
export function replayShoe(
  shoe: ShoeRecord,
  keys: { statement: KeyLookup; close: KeyLookup | undefined },
): ReplayShoe {
  const closed = shoe.status === 'CLOSED';
  const rotated = closed && keys.close !== undefined && keys.close.keyId !== keys.statement.keyId;
  return {
    shoeId: shoe.shoeId,
    tableId: shoe.tableId,
    number: shoe.number,
    status: closed ? 'CLOSED' : 'OPEN',
    phase: shoe.status,
    statement: shoe.statement,
    signature: shoe.signature,
    keyId: shoe.keyId,
    publicKey: shown(keys.statement),
    closePublicKey: rotated ? shown(keys.close) : null,
    commitment: shoe.commitment,
    clientSeed: shoe.clientSeed ?? null,
    contributions: {
      count: shoe.contributions ?? 0,
      digest: shoe.contributionsClosed?.digest ?? null,
      closedAt: shoe.contributionsClosed?.at ?? null,
      beaconRound: shoe.contributionsClosed?.beaconRound ?? null,
    },
    beacon: shoe.beacon ? { round: shoe.beacon.round, signature: shoe.beacon.signature } : null,
    serverSeed: closed ? (shoe.serverSeed ?? null) : null,
    cutIndex: closed ? (shoe.cutIndex ?? null) : null,
    burn: shoe.burn
      ? {
          shown: showCard(shoe.burn.shown),
          burned: shoe.burn.burned,
          positions: { from: 0, to: shoe.burn.burned },
        }
      : null,
    close: closed ? (shoe.close ?? null) : null,
  };
}

/** Each step with the shoe position of its card and the hand totals once it is done. */
function replaySteps(result: CoupResult, start: number): ReplayStep[] {
  let position = start;
  const totals = { PLAYER: 0, BANKER: 0 };
  return result.steps.map((s, i) => {
    const card = stepCard(s);
    if (card !== null) totals[s.to] = (totals[s.to] + pointValue(s.card)) % 10;
    return {
      step: i + 1,
      action: s.action,
      to: s.to,
      card,
      position: card === null ? null : position++,
      rule: s.rule,
      note: s.note,
      playerTotal: totals.PLAYER,
      bankerTotal: totals.BANKER,
    };
  });
}

export function replayCoup(coup: RoundCoup): ReplayCoup {
  const r = coup.result;
  const steps = replaySteps(r, coup.start);
  return {
    index: coup.index,
    start: coup.start,
    cardsUsed: r.cardsUsed,
    positions: steps.flatMap((s) => (s.position === null ? [] : [s.position])),
    steps,
    ...coupOutcome(r),
    playerNatural: r.playerNatural,
    bankerNatural: r.bankerNatural,
    cutCardOut: coup.cutCardOut,
    last: coup.last,
  };
}

/** The ledger entries a position moved money by, oldest first (`undefined` entries: not found). */
export function replayPosition(
  p: PositionRecord,
  entries: readonly (LedgerEntry | undefined)[],
): ReplayPosition {
  const settled = p.settlement;
  const bets: ReplayBet[] = betList(p.bets).map(({ type, amount }) => {
    const s = settled?.bets.find((b) => b.type === type);
    return {
      type,
      stake: amount,
      result: s?.result ?? (p.refundedAt ? 'REFUNDED' : null),
      payout: s ? s.payout : p.refundedAt ? amount : null,
      commission: s ? s.commission : null,
      commissionOwed: s ? s.commissionOwed : null,
    };
  });
  const movements = entries
    .filter((e): e is LedgerEntry => e !== undefined)
    .sort((a, b) => a.seq - b.seq)
    .map((e) => ({
      seq: e.seq,
      kind: e.kind,
      amount: e.amount,
      balanceBefore: e.balanceBefore,
      balanceAfter: e.balanceAfter,
      at: e.at,
    }));
  return {
    playerId: p.playerId,
    sessionId: p.sessionId ?? null,
    status: p.settledAt ? 'SETTLED' : p.refundedAt ? 'REFUNDED' : 'OPEN',
    bets,
    stake: p.stake,
    payout: settled ? settled.payout : p.refundedAt ? p.stake : null,
    commission: settled ? settled.commission : null,
    commissionOwed: settled ? settled.commissionOwed : null,
    balance: {
      currency: entries.find((e) => e !== undefined)?.currency ?? null,
      before: movements[0]?.balanceBefore ?? null,
      after: movements.at(-1)?.balanceAfter ?? null,
    },
    movements,
  };
}

export const replayEvent = (p: ParsedEvent): ReplayEvent => ({
  seq: p.record.seq,
  type: p.record.type,
  at: p.event?.at ?? '',
  hash: p.record.hash,
  prevHash: p.record.prevHash,
});
