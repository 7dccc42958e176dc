/**
 * What each durable record says to the table's watchers: an audit event of the shoe's chain, or one
 * of the table's own events, turned into the live events a front end shows. Public facts only — the
 * stakes as totals per bet type, never who staked what (the chain itself keeps no amounts either).
 */
import { type CoupResult, showCard } from '@pyb/engine';
import type { AuditRecord, LiveEventRecord, RoundRecord, Store, TableEventRecord } from '../shared';

export type LiveDraft = Omit<LiveEventRecord, 'seq'>;

interface ParsedAudit {
  type: string;
  shoeId: string;
  roundId?: string;
  at: string;
  data: Record<string, unknown>;
}

const parse = (record: AuditRecord): ParsedAudit => JSON.parse(record.event) as ParsedAudit;

/** When the betting window closes, where the round records one (a cadence table's rounds). */
const closesAtOf = (round: RoundRecord | undefined): string | null => {
  const closesAt = (round as { closesAt?: unknown } | undefined)?.closesAt;
  return typeof closesAt === 'string' ? closesAt : null;
};

/** The stakes of the round's positions, summed per bet type (aggregates only). */
export function stakedTotals(
  positions: readonly { bets: Record<string, number | undefined>; stake: number }[],
): {
  positions: number;
  stake: number;
  bets: Record<string, number>;
} {
  const bets: Record<string, number> = {};
  let stake = 0;
  for (const p of positions) {
    stake += p.stake;
    for (const [type, amount] of Object.entries(p.bets)) if (amount) bets[type] = (bets[type] ?? 0) + amount;
  }
  return { positions: positions.filter((p) => p.stake > 0).length, stake, bets };
}

const hand = (h: CoupResult['player']) => ({ cards: h.cards.map(showCard), total: h.total });

/** The cards in the order dealt, the result, the scoreboard's entry, and the shoe's end if it was the last. */
export function coupDrafts(
  base: LiveDraft,
  data: Record<string, unknown>,
  number: number | null,
): LiveDraft[] {
  const coup = data.coup as CoupResult;
  const dealt = coup.steps.filter((s) => s.action !== 'STAND');
  const out: LiveDraft[] = dealt.map((step, i) => ({
    ...base,
    type: 'CARD_DEALT',
    data: { index: i + 1, to: step.to, card: showCard(step.card), action: step.action },
  }));
  const facts = {
    winner: coup.winner,
    natural: coup.natural,
    playerPair: coup.playerPair,
    bankerPair: coup.bankerPair,
  };
  out.push({
    ...base,
    type: 'RESULT',
    data: { ...facts, player: hand(coup.player), banker: hand(coup.banker) },
  });
  out.push({
    ...base,
    type: 'SCOREBOARD',
    data: { number, ...facts, playerTotal: coup.player.total, bankerTotal: coup.banker.total },
  });
  if (data.last === true)
    out.push({ ...base, type: 'SHOE_ENDED', data: { cutCardOut: data.cutCardOut === true } });
  return out;
}

/** The live events of one audit record (none for the chain's own bookkeeping: seeds, beacon, leaves). */
export async function auditDrafts(
  store: Store,
  table: { tableId: string; operatorId: string },
  record: AuditRecord,
): Promise<LiveDraft[]> {
  const event = parse(record);
  const base: LiveDraft = {
    tableId: table.tableId,
    operatorId: table.operatorId,
    type: 'SHOE_OPENED',
    at: event.at,
    shoeId: event.shoeId,
    ...(event.roundId !== undefined && { roundId: event.roundId }),
    data: {},
  };
  const round = () =>
    event.roundId === undefined ? Promise.resolve(undefined) : store.get('round', { roundId: event.roundId });
  const d = event.data;
  switch (event.type) {
    case 'SHOE_OPENED':
      return [{ ...base, data: { number: d.number ?? null } }];
    case 'ROUND_OPENED': {
      const r = await round();
      return [
        {
          ...base,
          type: 'ROUND_OPENED',
          data: {
            number: d.number ?? null,
            closesAt: closesAtOf(r),
            lastCoup: d.lastCoup === true,
            // The bets the operator had switched off when it opened (absent: none).
            ...(r?.betsOff?.length && { betsOff: r.betsOff }),
          },
        },
      ];
    }
    case 'BETTING_CLOSED': {
      const [r, positions] = await Promise.all([round(), store.listPositions(event.roundId!)]);
      return [
        {
          ...base,
          type: 'NO_VA_MAS',
          data: {
            number: r?.number ?? null,
            betsDigest: d.betsDigest ?? null,
            beaconRound: d.beaconRound ?? null,
            // The players' receipt: the chain head after BETTING_CLOSED, signed (pyb-shoe/3).
            head: r?.betting?.head ?? null,
            totals: stakedTotals(positions),
          },
        },
      ];
    }
    case 'COUP_DEALT': {
      const r = await round();
      return coupDrafts(base, d, r?.number ?? null);
    }
    case 'ROUND_SETTLED': {
      const r = await round();
      const t = r?.totals;
      return [
        {
          ...base,
          type: 'ROUND_SETTLED',
          data: {
            number: r?.number ?? null,
            totals: t ? { positions: t.positions, stake: t.stake, payout: t.payout } : null,
            head: r?.head ?? null,
          },
        },
      ];
    }
    case 'ROUND_VOIDED':
      return [{ ...base, type: 'ROUND_VOIDED', data: { reason: d.reason ?? null } }];
    case 'SHOE_CLOSED':
      return [{ ...base, type: 'SHOE_CLOSED', data: { early: d.early ?? null, rounds: d.rounds ?? null } }];
    default:
      return [];
  }
}

/** The live event of one of the table's own events (lock-outs and their clearing). */
export function tableEventDraft(event: TableEventRecord): LiveDraft {
  const base = { tableId: event.tableId, operatorId: event.operatorId, at: event.at };
  switch (event.type) {
    case 'TABLE_LOCKED':
      return {
        ...base,
        type: 'TABLE_LOCKED',
        data: {
          source: event.lock?.source ?? null,
          phase: event.lock?.phase ?? null,
          cause: event.lock?.cause ?? null,
        },
      };
    case 'TABLE_UNLOCKED':
      return {
        ...base,
        type: 'TABLE_UNLOCKED',
        data: { reason: event.reason ?? null, clears: event.clears ?? null },
      };
    case 'TABLE_DISABLED':
    case 'TABLE_ENABLED':
    case 'BET_DISABLED':
    case 'BET_ENABLED':
      // What a player is told: which bet, and why (the person and key stay in the operator's log).
      return {
        ...base,
        type: event.type,
        data: {
          reason: event.reason ?? null,
          ...(event.betType !== undefined && { betType: event.betType }),
        },
      };
    default:
      return {
        ...base,
        type: 'SHOE_ABANDONED',
        ...(event.shoeId !== undefined && { shoeId: event.shoeId }),
        data: { reason: event.reason ?? null, clears: event.clears ?? null },
      };
  }
}
