import { lazily } from '@pyb/engine';
import { ShoeBundleSchema, ShoeProofSchema } from '@pyb/fairness';
import * as z from 'zod';
import { BetType, MinorUnits, Pagination, QueryInt, Timestamp } from './common';
import { OperatorId, PlayerId, ResourceId } from './ids';
import { Shoe, SignedHead } from './shoes';
import {
  AuditEventType,
  BetResult,
  HandSide,
  LedgerKind,
  PositionStatus,
  RoundStatus,
  ShoeStatus,
  StepAction,
  VoidReason,
  Winner,
} from './vocabulary';

/*
 * Regulator endpoints: round replay, game recall, audit export (docs/regulators.md). What these return
 * is evidence, so their schemas describe stored values rather than constrain them: a card or an amount
 * that was altered in storage must reach the auditor as it is (and fail a check), not turn the answer
 * into a 500. The export is checked strictly by `baccarat verify` (fairness ShoeBundleSchema).
 */

const ShoeStatement = /* @__PURE__ */ lazily(() => Shoe().shape.statement);
const ShoeClose = /* @__PURE__ */ lazily(() => Shoe().shape.close.unwrap());

/** A card as stored, in notation (`AS`, `TD`, `KH`); a stored value that is no card shows as `?<n>`. */
const StoredCard = /* @__PURE__ */ lazily(() =>
  z.string().meta({ description: 'Card notation, e.g. KH', example: 'KH' }),
);

export const ReplayParams = /* @__PURE__ */ lazily(() => z.strictObject({ roundId: ResourceId() }));

export const CheckStatus = /* @__PURE__ */ lazily(() =>
  z.enum(['PASSED', 'FAILED', 'PENDING_REVEAL', 'NOT_APPLICABLE']).meta({
    id: 'CheckStatus',
    description: 'PENDING_REVEAL: needs the server seed, revealed when the shoe is closed.',
  }),
);

export const ReplayProblem = /* @__PURE__ */ lazily(() =>
  z
    .object({
      code: z
        .string()
        .meta({ description: 'Stable: CHAIN_HASH, BETS_DIGEST, SETTLEMENT_MISMATCH, CARDS_MISMATCH, ...' }),
      detail: z.string(),
      seq: z.int().nullable().meta({ description: 'The audit event concerned.' }),
      playerId: z.string().nullable(),
    })
    .meta({ id: 'ReplayProblem' }),
);

export const ReplayCheck = /* @__PURE__ */ lazily(() =>
  z
    .object({ status: CheckStatus(), detail: z.string(), problems: z.array(ReplayProblem()) })
    .meta({ id: 'ReplayCheck' }),
);

export const RoundVerification = /* @__PURE__ */ lazily(() =>
  z
    .object({
      status: z.enum(['VERIFIED', 'PENDING_REVEAL', 'FAILED', 'ABANDONED']).meta({
        description:
          "ABANDONED: the round's shoe was abandoned after its audit chain broke at close (its seed never revealed): it never verifies.",
      }),
      statementSignature: ReplayCheck().meta({
        description: 'The signed shoe statement, as SHOE_OPENED published it.',
      }),
      commitment: ReplayCheck().meta({
        description: 'SHA-256 of the revealed server seed = the commitment.',
      }),
      cards: ReplayCheck().meta({
        description: 'The shoe re-dealt from the seeds: burn, coup position, cards, outcome.',
      }),
      tableau: ReplayCheck().meta({
        description: 'The recorded cards played by the rules give the recorded steps.',
      }),
      auditChain: ReplayCheck().meta({
        description: "The hash chain from its genesis to this round's last event.",
      }),
      bets: ReplayCheck().meta({ description: 'The stored bets are the ones committed at "no va más".' }),
      settlement: ReplayCheck().meta({
        description: 'Every position settled as the engine settles it, and paid so.',
      }),
      chainHead: ReplayCheck().meta({ description: 'The chain head signed at close covers the chain.' }),
      pendingReveal: z.array(z.string()).meta({ description: 'The checks that wait for the reveal.' }),
    })
    .meta({ id: 'RoundVerification' }),
);

const Hand = /* @__PURE__ */ lazily(() => z.object({ cards: z.array(StoredCard()), total: z.int() }));

export const ReplayStep = /* @__PURE__ */ lazily(() =>
  z
    .object({
      step: z.int().min(1),
      action: StepAction(),
      to: HandSide(),
      card: StoredCard().nullable().meta({ description: 'null for a stand decision' }),
      position: z.int().nullable().meta({ description: 'Position of the card in the shoe order.' }),
      rule: z
        .string()
        .meta({ description: 'INITIAL, NATURAL_9, PLAYER_DRAWS_0_5, BANKER_TABLEAU_3_VS_8_STANDS, ...' }),
      note: z.string(),
      playerTotal: z.int(),
      bankerTotal: z.int(),
    })
    .meta({ id: 'ReplayStep' }),
);

export const ReplayCoup = /* @__PURE__ */ lazily(() =>
  z
    .object({
      index: z.int().meta({ description: '0-based number of the coup in the shoe.' }),
      start: z.int(),
      cardsUsed: z.int(),
      positions: z.array(z.int()),
      steps: z.array(ReplayStep()),
      player: Hand(),
      banker: Hand(),
      winner: Winner(),
      natural: z.boolean(),
      playerNatural: z.boolean(),
      bankerNatural: z.boolean(),
      playerPair: z.boolean(),
      bankerPair: z.boolean(),
      cutCardOut: z.boolean(),
      last: z.boolean(),
    })
    .meta({ id: 'ReplayCoup' }),
);

export const ReplayBet = /* @__PURE__ */ lazily(() =>
  z
    .object({
      type: BetType(),
      stake: MinorUnits(),
      result: z.enum([...BetResult().options, 'REFUNDED']).nullable(),
      payout: MinorUnits().nullable(),
      commission: MinorUnits().nullable(),
      commissionOwed: MinorUnits().nullable(),
    })
    .meta({ id: 'ReplayBet' }),
);

export const ReplayMovement = /* @__PURE__ */ lazily(() =>
  z
    .object({
      seq: z.int(),
      kind: LedgerKind(),
      amount: MinorUnits(),
      balanceBefore: MinorUnits(),
      balanceAfter: MinorUnits(),
      at: z.string(),
    })
    .meta({ id: 'ReplayMovement' }),
);

export const ReplayPosition = /* @__PURE__ */ lazily(() =>
  z
    .object({
      playerId: z.string(),
      sessionId: z
        .string()
        .nullable()
        .meta({ description: "The player's table session (null on positions from before sessions)." }),
      status: PositionStatus(),
      bets: z.array(ReplayBet()),
      stake: MinorUnits(),
      payout: MinorUnits().nullable(),
      commission: MinorUnits().nullable(),
      commissionOwed: MinorUnits().nullable(),
      balance: z
        .object({
          currency: z.string().nullable(),
          before: MinorUnits().nullable(),
          after: MinorUnits().nullable(),
        })
        .meta({ description: "The wallet before the round's first bet and after its payout or refund." }),
      movements: z.array(ReplayMovement()),
    })
    .meta({ id: 'ReplayPosition' }),
);

export const ReplayShoe = /* @__PURE__ */ lazily(() =>
  z
    .object({
      shoeId: z.string(),
      tableId: z.string(),
      number: z.int(),
      status: z.enum(['OPEN', 'CLOSED']),
      phase: ShoeStatus(),
      statement: ShoeStatement(),
      signature: z.string(),
      keyId: z.string(),
      publicKey: z.object({ keyId: z.string(), pem: z.string() }).nullable().meta({
        description:
          'The key the statement names (current or retired), that its signature was checked with; null if the key service does not know it.',
      }),
      closePublicKey: z.object({ keyId: z.string(), pem: z.string() }).nullable().meta({
        description:
          'The key the close statement names when it is another one (the signing key was rotated while the shoe was open); null otherwise.',
      }),
      commitment: z.string(),
      clientSeed: z
        .string()
        .nullable()
        .meta({ description: "The operator's seed (one of the contributions)." }),
      contributions: z.object({
        count: z.int(),
        digest: z.string().nullable(),
        closedAt: z.string().nullable(),
        beaconRound: z.int().nullable(),
      }),
      beacon: z.object({ round: z.int(), signature: z.string() }).nullable(),
      serverSeed: z.string().nullable().meta({ description: 'hex; null until the shoe is closed.' }),
      cutIndex: z.int().nullable().meta({ description: 'null until the shoe is closed.' }),
      burn: z
        .object({
          shown: StoredCard(),
          burned: z.int(),
          positions: z.object({ from: z.int(), to: z.int() }),
        })
        .nullable(),
      close: ShoeClose().nullable(),
    })
    .meta({ id: 'ReplayShoe' }),
);

export const ReplayEvent = /* @__PURE__ */ lazily(() =>
  z
    .object({ seq: z.int(), type: AuditEventType(), at: z.string(), hash: z.string(), prevHash: z.string() })
    .meta({ id: 'ReplayEvent' }),
);

export const RoundTotals = /* @__PURE__ */ lazily(() =>
  z.object({
    positions: z.int(),
    stake: MinorUnits(),
    payout: MinorUnits(),
    commission: MinorUnits(),
    commissionOwed: MinorUnits(),
  }),
);

export const RoundReplay = /* @__PURE__ */ lazily(() =>
  z
    .object({
      roundId: z.string(),
      tableId: z.string(),
      shoeId: z.string(),
      operatorId: z.string(),
      number: z.int().meta({ description: 'Number of the round in its shoe, from 1.' }),
      status: RoundStatus(),
      openedAt: Timestamp(),
      closedAt: Timestamp().nullable(),
      dealtAt: Timestamp().nullable(),
      settledAt: Timestamp().nullable(),
      voidedAt: Timestamp().nullable(),
      voidReason: VoidReason().nullable(),
      shoe: ReplayShoe(),
      coup: ReplayCoup().nullable(),
      positions: z.array(ReplayPosition()),
      totals: RoundTotals().nullable(),
      betsDigest: z.string().nullable(),
      settlementsDigest: z.string().nullable(),
      events: z.array(ReplayEvent()),
      head: SignedHead().nullable().meta({ description: 'The signed chain head after the round finished.' }),
      voided: z
        .object({ revealed: z.boolean(), coup: ReplayCoup().nullable(), houseNet: z.int().nullable() })
        .nullable()
        .meta({
          description:
            'A voided round, once the shoe is revealed: the coup it would have dealt and the house net on its positions had it been played.',
        }),
      verification: RoundVerification(),
    })
    .meta({ id: 'RoundReplay' }),
);

/** Game recall pages: 10 rounds by default, at most 50. */
export const RECALL_DEFAULT_LIMIT = 10;
export const RECALL_MAX_LIMIT = 50;

export const PlayerRoundsParams = /* @__PURE__ */ lazily(() => z.strictObject({ playerId: PlayerId() }));

export const PlayerRoundsQuery = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    limit: QueryInt(1, RECALL_MAX_LIMIT, RECALL_DEFAULT_LIMIT),
    cursor: Pagination().shape.cursor,
    operatorId: OperatorId().optional().meta({
      description: 'Regulators: the supervised operator whose player this is.',
    }),
  }),
);

export const PlayerRecall = /* @__PURE__ */ lazily(() =>
  z
    .object({
      playerId: z.string(),
      operatorId: z.string(),
      rounds: z
        .array(RoundReplay())
        .meta({ description: "This page's rounds in play order; positions: this player's." }),
      nextCursor: z.string().nullable().meta({ description: 'Older rounds.' }),
    })
    .meta({ id: 'PlayerRecall' }),
);

export const AuditParams = /* @__PURE__ */ lazily(() => z.strictObject({ shoeId: ResourceId() }));

/** The audit bundle: the verifier's input, defined once in @pyb/fairness (docs/provably-fair.md §8). */
export const ShoeBundle = /* @__PURE__ */ lazily(() =>
  ShoeBundleSchema().meta({
    id: 'ShoeBundle',
    description: 'A closed shoe, verifiable offline: `baccarat verify bundle.json` (docs/regulators.md).',
  }),
);

/** The public proof: the verifier's input too, defined once in @pyb/fairness (docs/provably-fair.md §12). */
export const ShoeProof = /* @__PURE__ */ lazily(() =>
  ShoeProofSchema().meta({
    id: 'ShoeProof',
    description:
      'The public proof of a closed shoe: everything to re-deal it and re-walk its signed chain, nothing personal (no player id, no amount). `baccarat verify proof.json`.',
  }),
);
