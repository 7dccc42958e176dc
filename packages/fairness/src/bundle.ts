/**
 * The public bundle of a closed shoe: everything a third party needs to re-deal the shoe, replay every
 * coup, re-settle every position and re-walk the audit chain. The audit export endpoint produces exactly
 * this (docs/provably-fair.md §8). Parsing is strict: unknown fields are refused, not ignored, so a
 * verifier never silently skips something the producer meant to be checked.
 */
import {
  BET_TYPES,
  type CoupResult,
  dealtCards,
  handNotation,
  parseCard,
  showCard,
  TableConfigSchema,
} from '@pyb/engine';
import * as z from 'zod';
import { digest } from './audit';
import { SHOE_CLOSE_SCHEME, SHOE_SCHEME } from './statement';
import { clientSeedProblem } from './text';

export const BUNDLE_FORMAT = 'pyb-shoe-bundle/1';

const hex32 = z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits');
const base64 = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64');
const id = z.string().min(1).max(128);
const isoTime = z.iso.datetime({ offset: true });
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const card = z.string().refine(
  (text) => {
    try {
      parseCard(text);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'a card such as AS, TD, 10D, KH' },
);
const betType = z.enum(BET_TYPES as [string, ...string[]]);

export const ShoeStatementSchema = z
  .object({
    scheme: z.literal(SHOE_SCHEME),
    shoeId: id,
    tableId: id,
    operatorId: id,
    rulesVersion: z.string().min(1),
    decks: z.number().int(),
    cutCard: z.object({ minCardsBehind: z.number().int(), maxCardsBehind: z.number().int() }).strict(),
    table: TableConfigSchema,
    commitment: hex32,
    createdAt: isoTime,
    keyId: z.string().min(1),
  })
  .strict();

export const ShoeCloseStatementSchema = z
  .object({
    scheme: z.literal(SHOE_CLOSE_SCHEME),
    shoeId: id,
    commitment: hex32,
    head: hex32,
    length: count,
    closedAt: isoTime,
    keyId: z.string().min(1),
  })
  .strict();

const HandSchema = z
  .object({ cards: z.array(card).min(2).max(3), total: z.number().int().min(0).max(9) })
  .strict();

export const RecordedCoupSchema = z
  .object({
    /** 0-based number of the coup in the shoe (voided rounds deal no coup). */
    index: z.number().int().min(0),
    /** Position of its first card in the shoe order. */
    start: z.number().int().min(0),
    /** Cards in the order they left the shoe. */
    cards: z.array(card).min(4).max(6),
    winner: z.enum(['PLAYER', 'BANKER', 'TIE']),
    player: HandSchema,
    banker: HandSchema,
    natural: z.boolean(),
    playerPair: z.boolean(),
    bankerPair: z.boolean(),
  })
  .strict();

const BetSettlementSchema = z
  .object({
    type: betType,
    amount: count.min(1),
    result: z.enum(['WIN', 'LOSE', 'PUSH']),
    payout: count,
    commission: count,
    commissionOwed: count,
  })
  .strict();

/** engine PositionSettlement, as recorded. */
export const RecordedSettlementSchema = z
  .object({
    bets: z.array(BetSettlementSchema).min(1),
    stake: count,
    payout: count,
    commission: count,
    commissionOwed: count,
  })
  .strict();

/** One player's position in a round (one per player per round). */
export const RecordedPositionSchema = z
  .object({
    playerId: id,
    /** Stake per bet type, integer minor units. */
    bets: z.partialRecord(betType, count.min(1)),
    stake: count,
    /**
     * Calls that changed the position before "no va más" (bets, raises, reductions, withdrawals): one
     * ledger entry each, in the player's wallet ledger.
     */
    calls: count,
    /** null in a voided round (the stake was refunded). */
    settlement: RecordedSettlementSchema.nullable(),
    /** Ledger sequence number of the payout (settled) or refund (voided); null when no money moved. */
    ledgerSeq: count.nullable(),
  })
  .strict();

export const RecordedRoundSchema = z
  .object({
    roundId: id,
    /** 1-based number of the round in its shoe, voided rounds included. */
    number: z.number().int().min(1),
    status: z.enum(['SETTLED', 'VOIDED']),
    voidReason: z.string().optional(),
    /** The coup dealt for this round; null for a voided round. */
    coup: RecordedCoupSchema.nullable(),
    positions: z.array(RecordedPositionSchema),
  })
  .strict();

export const ChainEventSchema = z
  .object({
    hash: hex32,
    prevHash: hex32,
    /** The hashed object: { seq, type, shoeId, roundId?, at, data }. */
    event: z.record(z.string(), z.unknown()),
  })
  .strict();

export const ShoeBundleSchema = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    statement: ShoeStatementSchema,
    /** base64 DER ECDSA signature of the statement bytes. */
    signature: base64,
    /** PEM "PUBLIC KEY" or base64 DER SubjectPublicKeyInfo. */
    publicKey: z.string().min(1),
    serverSeed: hex32,
    clientSeed: z.string().superRefine((seed, ctx) => {
      const problem = clientSeedProblem(seed);
      if (problem) ctx.addIssue({ code: 'custom', message: `the client seed ${problem}` });
    }),
    cutIndex: z.number().int().min(0),
    burn: z.object({ shown: card, burned: z.number().int().min(1).max(10) }).strict(),
    rounds: z.array(RecordedRoundSchema),
    audit: z
      .object({
        /** The shoe's chain from its genesis (the commitment) to the head signed at close. */
        events: z.array(ChainEventSchema),
        close: ShoeCloseStatementSchema,
        /** base64 DER ECDSA signature of the close statement bytes. */
        signature: base64,
        /**
         * PEM or base64 SPKI of the key that signed the close statement, present only when that is
         * not the statement's key (the signing key was rotated while the shoe was open). Without
         * it, `publicKey` checks both signatures, as in every bundle made before key rotation.
         */
        publicKey: z.string().min(1).optional(),
      })
      .strict(),
  })
  .strict();

export type ShoeBundle = z.infer<typeof ShoeBundleSchema>;
export type RecordedRound = z.infer<typeof RecordedRoundSchema>;
export type RecordedCoup = z.infer<typeof RecordedCoupSchema>;
export type RecordedPosition = z.infer<typeof RecordedPositionSchema>;

/*
 * The records each round commits into the audit chain by a digest (docs/provably-fair.md §7). The core
 * writes them, this verifier recomputes them: one definition, here.
 */

/** BETTING_CLOSED `data.betsDigest`: the accepted bets, final at "no va más". */
export const betsRecord = (p: RecordedPosition) => ({
  id: p.playerId,
  bets: p.bets,
  stake: p.stake,
  calls: p.calls,
});
/** ROUND_SETTLED `data.settlementsDigest`: what each position was paid and by which ledger entry. */
export const settlementRecord = (p: RecordedPosition) => ({
  id: p.playerId,
  stake: p.stake,
  settlement: p.settlement,
  ledgerSeq: p.ledgerSeq,
});
/** ROUND_VOIDED `data.refundsDigest`: the stakes given back. */
export const refundRecord = (p: RecordedPosition) => ({
  id: p.playerId,
  bets: p.bets,
  stake: p.stake,
  ledgerSeq: p.ledgerSeq,
});

export const betsDigest = (positions: readonly RecordedPosition[]): string =>
  digest(positions.map(betsRecord));
export const settlementsDigest = (positions: readonly RecordedPosition[]): string =>
  digest(positions.map(settlementRecord));
export const refundsDigest = (positions: readonly RecordedPosition[]): string =>
  digest(positions.map(refundRecord));

/** A dealt coup as the bundle records it (cards in notation; a stored non-card shows as `?<n>`). */
export const recordedCoup = (coup: { index: number; start: number; result: CoupResult }): RecordedCoup => ({
  index: coup.index,
  start: coup.start,
  cards: dealtCards(coup.result).map(showCard),
  winner: coup.result.winner,
  player: handNotation(coup.result.player),
  banker: handNotation(coup.result.banker),
  natural: coup.result.natural,
  playerPair: coup.result.playerPair,
  bankerPair: coup.result.bankerPair,
});
