/**
 * The two verifiable forms of a closed shoe (docs/provably-fair.md §12): the audit bundle regulators
 * export (every round with every position, bet and settlement) and the public proof anyone may fetch
 * (the same evidence without positions: no player id, no amount). Both re-deal the shoe, replay every
 * coup and re-walk the audit chain; the bundle also re-settles every position. Parsing is strict:
 * unknown fields are refused, not ignored, so a verifier never silently skips something the producer
 * meant to be checked.
 */

import { lazily, TableConfigSchema } from '@pyb/engine';
import * as z from 'zod';
import { HeadAnchorSchema, TimeStampAnchorSchema } from './anchors';
import { BEACON_SCHEME } from './beacon';
import {
  base64,
  betType,
  card,
  count,
  hex32,
  hexBytes,
  id,
  isoTime,
  seedText,
  signedAmount,
} from './bundle-fields';
import { BundleLedgerSchema } from './bundle-ledger';
import { schemeIssues } from './bundle-scheme';
import { CONTRIBUTION_KINDS } from './entropy';
import { HEAD_SCHEME, SIGNED_HEAD_EVENTS } from './heads';
import { KEY_SCHEME } from './keys';
import { saltedEvidence } from './salted-bundle';
import { SHOE_CLOSE_SCHEME, SHOE_SCHEMES } from './statement';

export const BUNDLE_FORMAT = 'pyb-shoe-bundle/2';
export const PROOF_FORMAT = 'pyb-shoe-proof/1';

export const BeaconNetworkSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      scheme: z.literal(BEACON_SCHEME),
      chainHash: hex32(),
      publicKey: hexBytes(96),
      genesisTime: count(),
      period: z.number().int().min(1).max(3600),
    })
    .strict(),
);

export const ShoeStatementSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      scheme: z.enum(SHOE_SCHEMES),
      shoeId: id(),
      tableId: id(),
      operatorId: id(),
      number: z.number().int().min(1),
      previous: z
        .object({ shoeId: id(), number: z.number().int().min(1), closeHead: hex32() })
        .strict()
        .nullable(),
      /** The shoe opened before this one, closed or not (statement.ts PreviousOpenedShoe); absent on older shoes. */
      previousOpened: z
        .object({ shoeId: id(), number: z.number().int().min(1), statement: hex32() })
        .strict()
        .nullable()
        .optional(),
      rulesVersion: z.string().min(1),
      decks: z.number().int(),
      cutCard: z.object({ minCardsBehind: z.number().int(), maxCardsBehind: z.number().int() }).strict(),
      table: TableConfigSchema(),
      commitment: hex32(),
      beacon: BeaconNetworkSchema()
        .extend({ marginSeconds: z.number().int().min(0).max(3600) })
        .strict(),
      codeVersion: z.string().min(1).max(128),
      /** hex(SHA-256(digest salt)): the shoe's digests are salted (salted.ts); absent on older shoes. */
      saltCommitment: hex32().optional(),
      createdAt: isoTime(),
      keyId: z.string().min(1),
    })
    .strict(),
);

export const ShoeCloseStatementSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      scheme: z.literal(SHOE_CLOSE_SCHEME),
      shoeId: id(),
      commitment: hex32(),
      head: hex32(),
      length: count(),
      closedAt: isoTime(),
      keyId: z.string().min(1),
    })
    .strict(),
);

export const KeyCertificateSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      scheme: z.literal(KEY_SCHEME),
      keyId: z.string().min(1),
      generation: z.number().int().min(1),
      publicKey: base64(),
      validFrom: isoTime(),
      previousKeyId: z.string().min(1).nullable(),
    })
    .strict(),
);

export const SignedKeyCertificateSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      certificate: KeyCertificateSchema(),
      signature: base64(),
      /** Generations after the first: the rotation's outside time-stamp (keys.ts, keyCertificateDigest). */
      anchor: TimeStampAnchorSchema().optional(),
    })
    .strict(),
);

export const HeadStatementSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      scheme: z.literal(HEAD_SCHEME),
      shoeId: id(),
      commitment: hex32(),
      seq: count(),
      type: z.enum(SIGNED_HEAD_EVENTS),
      roundId: id().nullable(),
      head: hex32(),
      at: isoTime(),
      keyId: z.string().min(1),
    })
    .strict(),
);

/** A signed chain head: in a bundle or proof, and as the receipt a resolve or void answers with. */
export const SignedHeadSchema = /* @__PURE__ */ lazily(() =>
  z.object({ statement: HeadStatementSchema(), signature: base64() }).strict(),
);

export const ContributionSchema = /* @__PURE__ */ lazily(() =>
  z.object({ index: count(), kind: z.enum(CONTRIBUTION_KINDS), seed: seedText() }).strict(),
);

export const BeaconRoundSchema = /* @__PURE__ */ lazily(() =>
  z.object({ round: z.number().int().min(1), signature: hexBytes(48) }).strict(),
);

const HandSchema = /* @__PURE__ */ lazily(() =>
  z.object({ cards: z.array(card()).min(2).max(3), total: z.number().int().min(0).max(9) }).strict(),
);

export const RecordedCoupSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      /** 0-based number of the coup in the shoe (voided rounds deal no coup). */
      index: z.number().int().min(0),
      /** Position of its first card in the shoe order. */
      start: z.number().int().min(0),
      /** Cards in the order they left the shoe. */
      cards: z.array(card()).min(4).max(6),
      winner: z.enum(['PLAYER', 'BANKER', 'TIE']),
      player: HandSchema(),
      banker: HandSchema(),
      natural: z.boolean(),
      playerPair: z.boolean(),
      bankerPair: z.boolean(),
      /** pyb-shoe/3 only (required there): the beacon round its cards were drawn from. */
      beacon: BeaconRoundSchema().optional(),
    })
    .strict(),
);

/**
 * The cards of a coup voided for a dealer error and burned unplayed (seed 004; engine `burnCoup`): as
 * many as the tableau would have dealt from `start`. Absent on a void that left its cards in the shoe.
 */
export const RecordedBurnSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      /** Position of its first card in the shoe order. */
      start: z.number().int().min(0),
      /** The cards burned, in shoe order. */
      cards: z.array(card()).min(4).max(6),
      /** pyb-shoe/3 only (required there): the beacon round the burn drew them from. */
      beacon: BeaconRoundSchema().optional(),
    })
    .strict(),
);

const BetSettlementSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      type: betType(),
      amount: count().min(1),
      result: z.enum(['WIN', 'LOSE', 'PUSH']),
      payout: count(),
      commission: count(),
      commissionOwed: count(),
    })
    .strict(),
);

/** engine PositionSettlement, as recorded. */
export const RecordedSettlementSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      // Empty when the player withdrew every bet before "no va más" (the position stays, stake 0).
      bets: z.array(BetSettlementSchema()),
      stake: count(),
      payout: count(),
      commission: count(),
      commissionOwed: count(),
    })
    .strict(),
);

/** One player's position in a round (one per player per round). */
export const RecordedPositionSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      playerId: id(),
      /** Stake per bet type, integer minor units. */
      bets: z.partialRecord(betType(), count().min(1)),
      stake: count(),
      /**
       * Calls that changed the position before "no va más" (bets, raises, reductions, withdrawals): one
       * ledger entry each, in the player's wallet ledger.
       */
      calls: count(),
      /** null in a voided round (the stake was refunded). */
      settlement: RecordedSettlementSchema().nullable(),
      /** Ledger sequence number of the payout (settled) or refund (voided); null when no money moved. */
      ledgerSeq: count().nullable(),
      /** Regulator bundle: the ledger entries it moved money by (bundle-ledger.ts). */
      ledger: BundleLedgerSchema().optional(),
    })
    .strict(),
);

export const RecordedRoundSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      roundId: id(),
      /** 1-based number of the round in its shoe, voided rounds included. */
      number: z.number().int().min(1),
      status: z.enum(['SETTLED', 'VOIDED']),
      voidReason: z.string().optional(),
      /** Regulator bundle: the void's note, which the chain holds only as `noteDigest` (salted.ts). */
      voidNote: z.string().optional(),
      /** The coup dealt for this round; null for a voided round. */
      coup: RecordedCoupSchema().nullable(),
      /** A voided round whose cards a dealer error exposed: the cards burned. */
      burned: RecordedBurnSchema().optional(),
      positions: z.array(RecordedPositionSchema()),
    })
    .strict(),
);

export const ChainEventSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      hash: hex32(),
      prevHash: hex32(),
      /** The hashed object: { seq, type, shoeId, roundId?, at, data }. */
      event: z.record(z.string(), z.unknown()),
    })
    .strict(),
);

/** A round of the public proof: the recorded round without its positions (strict like it). */
export const ProofRoundSchema = /* @__PURE__ */ lazily(() =>
  RecordedRoundSchema().omit({ positions: true, voidNote: true }),
);

/**
 * Voided rounds, revealed: the coup each would have dealt (the shoe's next coup at the void, voids.ts
 * `voidedCoups`; null when the shoe had no coup left) and the house's net result had it been
 * played with the positions it had. Sums per shoe for regulators.
 */
export const VoidReportSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      count: count(),
      /** Sum of houseNet over the voided rounds that had a coup to deal. */
      houseNet: signedAmount(),
      rounds: z.array(
        z
          .object({
            roundId: id(),
            number: z.number().int().min(1),
            reason: z.string(),
            coup: RecordedCoupSchema().nullable(),
            /** Stakes lost minus net winnings paid, had the coup been played; 0 without a coup. */
            houseNet: signedAmount(),
          })
          .strict(),
      ),
    })
    .strict(),
);

const AuditSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      /** The shoe's chain from its genesis (the commitment) to the head signed at close. */
      events: z.array(ChainEventSchema()),
      close: ShoeCloseStatementSchema(),
      /** base64 DER ECDSA signature of the close statement bytes. */
      signature: base64(),
    })
    .strict(),
);

/** What the bundle and the proof share: everything needed to re-deal the shoe and re-walk its chain. */
const evidence = /* @__PURE__ */ lazily(() => ({
  statement: ShoeStatementSchema(),
  /** base64 DER ECDSA signature of the statement bytes. */
  signature: base64(),
  /** Every signing-key generation known when it was made, oldest first, with its certificate. */
  keys: z.array(SignedKeyCertificateSchema()).min(1),
  serverSeed: hex32(),
  contributions: z.array(ContributionSchema()),
  beacon: BeaconRoundSchema(),
  cutIndex: z.number().int().min(0),
  burn: z
    .object({
      shown: card(),
      burned: z.number().int().min(1).max(10),
      /** pyb-shoe/3 only (required there): the burned cards, in the order drawn. */
      cards: z.array(card()).max(10).optional(),
    })
    .strict(),
  /** The signed heads: contributions closed, each round settled or voided (pyb-shoe/3: betting closed). */
  heads: z.array(SignedHeadSchema()),
  /**
   * pyb-shoe/3: the RFC 3161 anchor of each head that names a beacon round (CONTRIBUTIONS_CLOSED,
   * BETTING_CLOSED), by the head's seq. Optional in the format: a head without one fails its
   * `.timestamp` check, it does not make the bundle unreadable.
   */
  anchors: z.array(HeadAnchorSchema()).optional(),
  audit: AuditSchema(),
}));

export const ShoeBundleSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      format: z.literal(BUNDLE_FORMAT),
      ...evidence(),
      rounds: z.array(RecordedRoundSchema()),
      voids: VoidReportSchema(),
      ...saltedEvidence(),
    })
    .strict()
    .superRefine(schemeIssues),
);

export const ShoeProofSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      format: z.literal(PROOF_FORMAT),
      ...evidence(),
      rounds: z.array(ProofRoundSchema()),
    })
    .strict()
    .superRefine(schemeIssues),
);

export type ShoeBundle = z.infer<ReturnType<typeof ShoeBundleSchema>>;
export type ShoeProof = z.infer<ReturnType<typeof ShoeProofSchema>>;
export type ProofRound = z.infer<ReturnType<typeof ProofRoundSchema>>;
export type VoidReport = z.infer<ReturnType<typeof VoidReportSchema>>;
export type RecordedRound = z.infer<ReturnType<typeof RecordedRoundSchema>>;
export type RecordedCoup = z.infer<ReturnType<typeof RecordedCoupSchema>>;
export type RecordedBurn = z.infer<ReturnType<typeof RecordedBurnSchema>>;
export type RecordedPosition = z.infer<ReturnType<typeof RecordedPositionSchema>>;

export { recordedBurn, recordedCoup } from './bundle-records';
