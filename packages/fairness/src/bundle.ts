/**
 * The public bundle of a closed shoe: everything a third party needs to re-deal the shoe, replay every
 * coup, re-settle every position and re-walk the audit chain. The audit export endpoint produces exactly
 * this (docs/provably-fair.md §8). Parsing is strict: unknown fields are refused, not ignored, so a
 * verifier never silently skips something the producer meant to be checked.
 */
import { BET_TYPES, parseCard, TableConfigSchema } from '@pyb/engine';
import { z } from 'zod';
import { digest } from './audit';
import { SHOE_CLOSE_SCHEME, SHOE_SCHEME } from './statement';
import { MAX_CLIENT_SEED_BYTES } from './stream';

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

export const RecordedOutcomeSchema = z
  .object({
    winner: z.enum(['PLAYER', 'BANKER', 'TIE']),
    player: HandSchema,
    banker: HandSchema,
    natural: z.boolean(),
    playerPair: z.boolean(),
    bankerPair: z.boolean(),
  })
  .strict();

export const RecordedBetSchema = z
  .object({
    type: betType,
    amount: count.min(1),
    /** VOID only in a voided round (full refund). */
    result: z.enum(['WIN', 'LOSE', 'PUSH', 'VOID']),
    payout: count,
    commission: count,
    commissionOwed: count,
  })
  .strict();

export const RecordedPositionSchema = z
  .object({
    positionId: id,
    playerId: id,
    seat: z.number().int().min(1).max(14),
    bets: z.array(RecordedBetSchema).min(1),
    payout: count,
    commission: count,
    commissionOwed: count,
  })
  .strict();

export const RecordedRoundSchema = z
  .object({
    roundId: id,
    /** 1-based, consecutive, in the order the rounds were played (voided ones included). */
    coup: z.number().int().min(1),
    status: z.enum(['SETTLED', 'VOIDED']),
    /** Cards in the order they left the shoe; a round voided before its first card has none. */
    cards: z.array(card).max(6),
    /** null for a voided round. */
    outcome: RecordedOutcomeSchema.nullable(),
    positions: z.array(RecordedPositionSchema),
  })
  .strict();

export const ChainEventSchema = z
  .object({ hash: hex32, prevHash: hex32, event: z.record(z.string(), z.unknown()) })
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
    clientSeed: z
      .string()
      .min(1)
      .refine((s) => new TextEncoder().encode(s).length <= MAX_CLIENT_SEED_BYTES, 'at most 256 UTF-8 bytes'),
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
      })
      .strict(),
  })
  .strict();

export type ShoeBundle = z.infer<typeof ShoeBundleSchema>;
export type RecordedRound = z.infer<typeof RecordedRoundSchema>;
export type RecordedPosition = z.infer<typeof RecordedPositionSchema>;

/**
 * The records committed by `betsDigest` in a round's BETTING_CLOSED event: one per position, with
 * the stakes only (what was accepted before "no va más").
 */
export const betRecords = (positions: readonly RecordedPosition[]) =>
  positions.map((p) => ({
    id: p.positionId,
    playerId: p.playerId,
    seat: p.seat,
    bets: p.bets.map((b) => ({ type: b.type, amount: b.amount })),
  }));

/** The records committed by `positionsDigest` in ROUND_SETTLED / ROUND_VOIDED: what each position got. */
export const settlementRecords = (positions: readonly RecordedPosition[]) =>
  positions.map((p) => ({
    id: p.positionId,
    payout: p.payout,
    commission: p.commission,
    commissionOwed: p.commissionOwed,
    bets: p.bets.map((b) => ({
      type: b.type,
      result: b.result,
      payout: b.payout,
      commission: b.commission,
      commissionOwed: b.commissionOwed,
    })),
  }));

export const betsDigest = (positions: readonly RecordedPosition[]): string => digest(betRecords(positions));
export const positionsDigest = (positions: readonly RecordedPosition[]): string =>
  digest(settlementRecords(positions));
