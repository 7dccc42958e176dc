/**
 * Builds a complete, correctly signed bundle for a simulated shoe: the reference for what the audit
 * export must produce, the source of the example bundle in the docs, and a fixture for tests. The
 * signer is injected (KMS, the local key service, or a test key), so this stays pure.
 */
import { type Bet, formatCard, nextCoup, settle, startShoe, type TableConfig } from '@pyb/engine';
import { eventHash } from './audit';
import {
  BUNDLE_FORMAT,
  betsDigest,
  positionsDigest,
  type RecordedPosition,
  type RecordedRound,
  type ShoeBundle,
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
  createdAt: string;
  closedAt: string;
  keyId: string;
  /** PEM or base64 SPKI of the signing key. */
  publicKey: string;
  sign: (message: Uint8Array) => Uint8Array | Promise<Uint8Array>;
  /** Coups to play (stops earlier if the cut card ends the shoe). */
  coups: number;
  /** 1-based coup numbers to record as voided (no cards dealt, stakes refunded). */
  voided?: readonly number[];
}

/** Deterministic bets for coup n: one Punto, one Banca (with a tie), one tie-only position. */
function demoPositions(
  table: TableConfig,
  n: number,
): { positionId: string; playerId: string; seat: number; bets: Bet[] }[] {
  const stake = (type: Bet['type'], k: number) => {
    const { min, max } = table.limits[type];
    return Math.min(max, min * (1 + ((n * 7 + k * 3) % 5)));
  };
  return [
    {
      positionId: `c${n}-p1`,
      playerId: 'player-1',
      seat: 1,
      bets: [{ type: 'PLAYER', amount: stake('PLAYER', 1) }],
    },
    {
      positionId: `c${n}-p2`,
      playerId: 'player-2',
      seat: 2,
      bets: [
        { type: 'BANKER', amount: stake('BANKER', 2) },
        { type: 'TIE', amount: stake('TIE', 2) },
      ],
    },
    {
      positionId: `c${n}-p3`,
      playerId: 'player-3',
      seat: 3,
      bets: [{ type: 'TIE', amount: stake('TIE', 3) }],
    },
  ];
}

export async function buildDemoBundle(input: DemoBundleInput): Promise<ShoeBundle> {
  const { table } = input;
  const commitment = commitmentOf(input.serverSeed);
  const statement = shoeStatement({
    shoeId: input.shoeId,
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
    shoeId: input.shoeId,
    decks: table.decks,
    cutCard: table.cutCard,
  });

  const events: ShoeBundle['audit']['events'] = [];
  const append = (event: Record<string, unknown>) => {
    const prevHash = events.length > 0 ? events[events.length - 1]!.hash : commitment;
    events.push({ hash: eventHash(prevHash, event), prevHash, event });
  };
  append({ type: 'SHOE_OPENED', shoeId: input.shoeId, commitment, statementSignature: signature });
  append({ type: 'CLIENT_SEED_FIXED', shoeId: input.shoeId, clientSeed: input.clientSeed });

  const rounds: RecordedRound[] = [];
  let state = startShoe(shoe.order);
  for (let n = 1; n <= input.coups && !state.finished; n++) {
    const roundId = `${input.shoeId}-r${n}`;
    const placed = demoPositions(table, n);
    append({ type: 'ROUND_OPENED', roundId, coup: n });
    if (input.voided?.includes(n)) {
      const positions: RecordedPosition[] = placed.map((p) => ({
        ...p,
        bets: p.bets.map((b) => ({
          ...b,
          result: 'VOID' as const,
          payout: b.amount,
          commission: 0,
          commissionOwed: 0,
        })),
        payout: p.bets.reduce((s, b) => s + b.amount, 0),
        commission: 0,
        commissionOwed: 0,
      }));
      append({
        type: 'ROUND_VOIDED',
        roundId,
        reason: 'MISDEAL',
        positionsDigest: positionsDigest(positions),
      });
      rounds.push({ roundId, coup: n, status: 'VOIDED', cards: [], outcome: null, positions });
      continue;
    }
    const unsettled: RecordedPosition[] = placed.map((p) => ({
      ...p,
      bets: p.bets.map((b) => ({
        ...b,
        result: 'PUSH' as const,
        payout: 0,
        commission: 0,
        commissionOwed: 0,
      })),
      payout: 0,
      commission: 0,
      commissionOwed: 0,
    }));
    append({ type: 'BETTING_CLOSED', roundId, betsDigest: betsDigest(unsettled) });
    const coup = nextCoup(table, shoe.order, shoe.cutIndex, state);
    state = coup.state;
    const { result } = coup;
    const cards = Array.from(shoe.order.subarray(coup.start, coup.start + result.cardsUsed), formatCard);
    append({ type: 'COUP_RESOLVED', roundId, cards, winner: result.winner });
    const positions: RecordedPosition[] = placed.map((p) => {
      const s = settle(table, p.bets, result);
      return {
        ...p,
        bets: s.bets,
        payout: s.payout,
        commission: s.commission,
        commissionOwed: s.commissionOwed,
      };
    });
    append({ type: 'ROUND_SETTLED', roundId, positionsDigest: positionsDigest(positions) });
    rounds.push({
      roundId,
      coup: n,
      status: 'SETTLED',
      cards,
      outcome: {
        winner: result.winner,
        player: { cards: result.player.cards.map(formatCard), total: result.player.total },
        banker: { cards: result.banker.cards.map(formatCard), total: result.banker.total },
        natural: result.natural,
        playerPair: result.playerPair,
        bankerPair: result.bankerPair,
      },
      positions,
    });
  }
  append({ type: 'SHOE_CLOSED', shoeId: input.shoeId, serverSeed: bytesToHex(input.serverSeed) });

  const close: ShoeCloseStatement = {
    scheme: SHOE_CLOSE_SCHEME,
    shoeId: input.shoeId,
    commitment,
    head: events[events.length - 1]!.hash,
    length: events.length,
    closedAt: input.closedAt,
    keyId: input.keyId,
  };
  return {
    format: BUNDLE_FORMAT,
    statement: statement as ShoeBundle['statement'],
    signature,
    publicKey: input.publicKey,
    serverSeed: bytesToHex(input.serverSeed),
    clientSeed: input.clientSeed,
    cutIndex: shoe.cutIndex,
    burn: { shown: formatCard(shoe.burn.shown), burned: shoe.burn.burned },
    rounds,
    audit: { events, close, signature: bytesToBase64(await input.sign(closeStatementBytes(close))) },
  };
}
