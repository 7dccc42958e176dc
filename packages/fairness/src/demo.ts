/**
 * Builds a complete, correctly signed bundle for a simulated shoe, with the audit events the core
 * writes (docs/provably-fair.md §7): the reference for what the audit export produces, the source of
 * the example bundle in the docs, and a fixture for tests. The signer is injected (KMS, the local key
 * service, or a test key), so this stays pure.
 */
import {
  type BaseBetType,
  type BetType,
  betList,
  formatCard,
  nextCoup,
  settle,
  startShoe,
  type TableConfig,
} from '@pyb/engine';
import { eventHash } from './audit';
import {
  BUNDLE_FORMAT,
  betsDigest,
  type RecordedPosition,
  type RecordedRound,
  recordedCoup,
  refundsDigest,
  type ShoeBundle,
  settlementsDigest,
} from './bundle';
import { bytesToBase64, bytesToHex } from './bytes';
import { dealShoe } from './shoe';
import {
  closeStatementBytes,
  commitmentOf,
  RULES_VERSION,
  SHOE_CLOSE_SCHEME,
  type ShoeCloseStatement,
  shoeStatement,
  statementBytes,
} from './statement';

export interface DemoBundleInput {
  serverSeed: Uint8Array;
  clientSeed: string;
  shoeId: string;
  tableId: string;
  operatorId: string;
  table: TableConfig;
  /** ISO time the shoe opened; later events follow one second apart. */
  createdAt: string;
  keyId: string;
  /** PEM or base64 SPKI of the signing key. */
  publicKey: string;
  sign: (message: Uint8Array) => Uint8Array | Promise<Uint8Array>;
  /**
   * The key that signs the close statement when the signing key was rotated while the shoe was open
   * (default: the statement's key). Another key id puts its public key in `audit.publicKey`.
   */
  closeKey?: {
    keyId: string;
    publicKey: string;
    sign: (message: Uint8Array) => Uint8Array | Promise<Uint8Array>;
  };
  /** Rounds to play (fewer if the cut card ends the shoe first). */
  rounds: number;
  /** 1-based round numbers voided before betting closed (no cards dealt, stakes refunded). */
  voided?: readonly number[];
}

/**
 * Deterministic bets for round n: Punto; Banca with a tie; a tie alone; and, where the table offers
 * side bets, a fourth player on every one of them. Within the table limits.
 */
function demoBets(
  table: TableConfig,
  n: number,
): { playerId: string; bets: Partial<Record<BetType, number>> }[] {
  const stake = (type: BaseBetType, k: number) => {
    const { min, max } = table.limits[type];
    return Math.min(max, min * (1 + ((n * 7 + k * 3) % 5)));
  };
  return [
    { playerId: 'player-1', bets: { PLAYER: stake('PLAYER', 1) } },
    { playerId: 'player-2', bets: { BANKER: stake('BANKER', 2), TIE: stake('TIE', 2) } },
    { playerId: 'player-3', bets: { TIE: stake('TIE', 3) } },
    ...(table.sideBets
      ? [
          {
            playerId: 'player-4',
            bets: Object.fromEntries(
              Object.entries(table.sideBets).map(([type, { limit }], k) => [
                type,
                Math.min(limit.max, limit.min * (1 + ((n + k) % 3))),
              ]),
            ),
          },
        ]
      : []),
  ];
}

export async function buildDemoBundle(input: DemoBundleInput): Promise<ShoeBundle> {
  const { table, shoeId } = input;
  const commitment = commitmentOf(input.serverSeed);
  const statement = shoeStatement({
    shoeId,
    tableId: input.tableId,
    operatorId: input.operatorId,
    rulesVersion: RULES_VERSION,
    table,
    commitment,
    createdAt: input.createdAt,
    keyId: input.keyId,
  });
  const signature = bytesToBase64(await input.sign(statementBytes(statement)));
  const shoe = dealShoe({
    serverSeed: input.serverSeed,
    clientSeed: input.clientSeed,
    shoeId,
    decks: table.decks,
    cutCard: table.cutCard,
  });

  const events: ShoeBundle['audit']['events'] = [];
  const t0 = Date.parse(input.createdAt);
  const at = () => new Date(t0 + events.length * 1000).toISOString();
  const append = (type: string, roundId: string | undefined, data: Record<string, unknown>) => {
    const prevHash = events.length > 0 ? events[events.length - 1]!.hash : commitment;
    const event = { seq: events.length, type, shoeId, ...(roundId && { roundId }), at: at(), data };
    events.push({ hash: eventHash(prevHash, event), prevHash, event });
  };
  append('SHOE_OPENED', undefined, { tableId: input.tableId, number: 1, statement, signature });

  const rounds: RecordedRound[] = [];
  let state = startShoe(shoe.order);
  let ledgerSeq = 100;
  for (let n = 1; n <= input.rounds && !state.finished; n++) {
    const roundId = `${shoeId}-r${n}`;
    append('ROUND_OPENED', roundId, {
      tableId: input.tableId,
      number: n,
      ...(n === 1 && { clientSeed: input.clientSeed }),
    });
    const placed = demoBets(table, n).map((p) => ({
      ...p,
      stake: betList(p.bets).reduce((s, b) => s + b.amount, 0),
      calls: betList(p.bets).length,
    }));
    if (input.voided?.includes(n)) {
      const positions: RecordedPosition[] = placed.map((p) => ({
        ...p,
        settlement: null,
        ledgerSeq: ledgerSeq++,
      }));
      append('ROUND_VOIDED', roundId, {
        reason: 'MISDEAL',
        refundsDigest: refundsDigest(positions),
        positions: positions.length,
        refunded: positions.reduce((s, p) => s + p.stake, 0),
      });
      rounds.push({ roundId, number: n, status: 'VOIDED', voidReason: 'MISDEAL', coup: null, positions });
      continue;
    }
    const open = placed.map((p) => ({ ...p, settlement: null, ledgerSeq: null }));
    append('BETTING_CLOSED', roundId, {
      betsDigest: betsDigest(open),
      positions: open.length,
      stake: open.reduce((s, p) => s + p.stake, 0),
    });
    const coup = nextCoup(table, shoe.order, shoe.cutIndex, state);
    const first = state.coups === 0;
    state = coup.state;
    const { result } = coup;
    const dealt = Array.from(shoe.order.subarray(coup.start, coup.start + result.cardsUsed));
    append('COUP_DEALT', roundId, {
      index: coup.index,
      start: coup.start,
      cards: dealt,
      coup: result,
      cutCardOut: coup.cutCardOut,
      last: coup.last,
      ...(first && { burn: shoe.burn }),
    });
    const positions: RecordedPosition[] = placed.map((p) => {
      const settlement = settle(table, betList(p.bets), result);
      return { ...p, settlement, ledgerSeq: settlement.payout > 0 ? ledgerSeq++ : null };
    });
    append('ROUND_SETTLED', roundId, { settlementsDigest: settlementsDigest(positions) });
    rounds.push({
      roundId,
      number: n,
      status: 'SETTLED',
      coup: recordedCoup({ index: coup.index, start: coup.start, result }),
      positions,
    });
  }
  append('SHOE_CLOSED', undefined, {
    serverSeed: bytesToHex(input.serverSeed),
    clientSeed: input.clientSeed,
    commitment,
    cutIndex: shoe.cutIndex,
    rounds: rounds.length,
    coups: state.coups,
  });

  const close: ShoeCloseStatement = {
    scheme: SHOE_CLOSE_SCHEME,
    shoeId,
    commitment,
    head: events[events.length - 1]!.hash,
    length: events.length,
    closedAt: events[events.length - 1]!.event.at as string,
    keyId: input.closeKey?.keyId ?? input.keyId,
  };
  const closer = input.closeKey ?? input;
  return {
    format: BUNDLE_FORMAT,
    statement,
    signature,
    publicKey: input.publicKey,
    serverSeed: bytesToHex(input.serverSeed),
    clientSeed: input.clientSeed,
    cutIndex: shoe.cutIndex,
    burn: { shown: formatCard(shoe.burn.shown), burned: shoe.burn.burned },
    rounds,
    audit: {
      events,
      close,
      signature: bytesToBase64(await closer.sign(closeStatementBytes(close))),
      ...(close.keyId !== input.keyId && { publicKey: closer.publicKey }),
    },
  };
}
