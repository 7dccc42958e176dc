import { BET_TYPES, lazily } from '@pyb/engine';
import * as z from 'zod';
import {
  Amount,
  BetType,
  Card,
  ClientSeed,
  FreeText,
  MinorUnits,
  OptionalBetType,
  Timestamp,
} from './common';
import { PlayerId, ResourceId } from './ids';
import { HeadAnchor, SignedHead } from './shoes';
import {
  BetResult,
  HandSide,
  PositionStatus,
  RoundStatus,
  StepAction,
  VoidReason,
  Winner,
} from './vocabulary';
import { LedgerEntry } from './wallets';

export const RoundParams = /* @__PURE__ */ lazily(() => z.strictObject({ roundId: ResourceId() }));

export const OpenRoundRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({ clientSeed: ClientSeed().optional() }).meta({ id: 'OpenRoundRequest' }),
);

export const Seat = /* @__PURE__ */ lazily(() =>
  z.int().min(1).max(14).meta({
    id: 'Seat',
    description:
      'A seat of the table, numbered from 1 as the rulebooks number them (mini 7, midi 9, full 14).',
  }),
);

export const BetInput = /* @__PURE__ */ lazily(() =>
  z.strictObject({ type: BetType(), amount: Amount() }).meta({ id: 'BetInput' }),
);

export const PlaceBetRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      playerId: PlayerId(),
      bets: z
        .array(BetInput())
        .min(1)
        .max(BET_TYPES.length)
        .meta({ description: 'One bet per type; a type the table does not offer is 422 BET_SIDE_DISABLED.' }),
      seat: Seat()
        .optional()
        .meta({
          description:
            'Bet from this seat: claimed if free or lost by an idle holder (first come), else SEAT_TAKEN. ' +
            'Omitted: the seat the player holds at the table, else standing (standing bettors are unlimited). ' +
            "The coup's first bet fixes the player's place for the coup.",
        }),
    })
    .meta({ id: 'PlaceBetRequest' }),
);

export const ReduceBetsRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      playerId: PlayerId(),
      bets: z
        .array(BetInput())
        .min(1)
        .max(BET_TYPES.length)
        .meta({ description: 'Amount to take off each bet type (down to 0 withdraws it).' }),
    })
    .meta({ id: 'ReduceBetsRequest' }),
);

export const CancelBetsRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      playerId: PlayerId(),
      types: z
        .array(BetType())
        .min(1)
        .max(BET_TYPES.length)
        .optional()
        .meta({ description: 'The bet types to withdraw whole; omitted: every bet of the position.' }),
    })
    .meta({ id: 'CancelBetsRequest' }),
);

export const VoidRoundRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      reason: VoidReason(),
      note: FreeText(500).optional(),
      burnCards: z.boolean().optional().meta({
        description:
          "Seed 004 (2.7): a dealer error exposed this coup's cards — its first card came out of the sabot face up (EXPOSED_CARD), or extra cards were drawn at the end of the coup before (EXTRA_CARDS) — so the coup is voided AND the cards it would have used (as many as the tableau would have dealt) are burned: the next coup starts after them. Only with those two reasons (else 400 VOID_REASON_INVALID). Default false: the round is voided and its cards stay in the shoe.",
      }),
    })
    .meta({ id: 'VoidRoundRequest' }),
);

export const ResolveRoundRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({}).meta({ id: 'ResolveRoundRequest' }),
);

export const Hand = /* @__PURE__ */ lazily(() =>
  z.object({ cards: z.array(Card()), total: z.int().min(0).max(9) }).meta({ id: 'Hand' }),
);

export const CoupStep = /* @__PURE__ */ lazily(() =>
  z
    .object({
      card: Card().nullable().meta({ description: 'null for a stand decision' }),
      to: HandSide(),
      action: StepAction(),
      rule: z.string().meta({ description: 'Stable code of the rule applied, e.g. PLAYER_DRAWS_0_5.' }),
      note: z.string(),
    })
    .meta({ id: 'CoupStep' }),
);

export const Coup = /* @__PURE__ */ lazily(() =>
  z
    .object({
      player: Hand(),
      banker: Hand(),
      winner: Winner(),
      natural: z.boolean(),
      playerPair: z.boolean(),
      bankerPair: z.boolean(),
      steps: z.array(CoupStep()),
      start: z.int().min(0).meta({ description: 'Position of its first card in the shoe order.' }),
      cardsUsed: z.int().min(4).max(6),
      cutCardOut: z.boolean(),
    })
    .meta({ id: 'Coup' }),
);

export const BetView = /* @__PURE__ */ lazily(() =>
  z
    .object({
      type: BetType(),
      amount: Amount(),
      result: BetResult().nullable(),
      payout: MinorUnits().nullable(),
      commission: MinorUnits().nullable(),
      commissionOwed: MinorUnits().nullable(),
    })
    .meta({ id: 'Bet' }),
);

export const Position = /* @__PURE__ */ lazily(() =>
  z
    .object({
      roundId: z.string(),
      playerId: z.string(),
      bets: z.array(BetView()),
      stake: MinorUnits(),
      payout: MinorUnits().nullable(),
      commission: MinorUnits().nullable(),
      commissionOwed: MinorUnits().nullable(),
      status: PositionStatus(),
      seat: Seat().nullable().meta({ description: 'The seat the player bets from; null: standing.' }),
      sessionId: z.string().nullable().meta({
        description: "The player's table session the position was opened in (docs/responsible-gaming.md).",
      }),
    })
    .meta({ id: 'Position' }),
);

export const BurnedCoup = /* @__PURE__ */ lazily(() =>
  z
    .object({
      start: z.int().min(0).meta({ description: 'Position of its first card in the shoe order.' }),
      cards: z.array(Card()).meta({ description: 'The cards burned, in shoe order (4 to 6).' }),
      cutCardOut: z.boolean().meta({ description: 'The burned cards brought out the cut card.' }),
    })
    .meta({
      id: 'BurnedCoup',
      description:
        'The cards of a coup voided for a dealer error (`burnCards`), burned unplayed: as many as the tableau would have dealt.',
    }),
);

export const Round = /* @__PURE__ */ lazily(() =>
  z
    .object({
      roundId: z.string(),
      tableId: z.string(),
      shoeId: z.string(),
      operatorId: z.string(),
      coup: z.int().min(1),
      status: RoundStatus(),
      openedAt: Timestamp(),
      closesAt: Timestamp().nullable().meta({
        description:
          'Cadence tables: when betting closes (bets from then are refused); null on operator-driven tables.',
      }),
      betsOff: z.array(OptionalBetType()).meta({
        description:
          "Pair and side bets of the table's configuration the operator had switched off when the round opened: refused in this round (422 BET_SIDE_DISABLED).",
      }),
      resolvedAt: Timestamp().nullable(),
      result: Coup().nullable(),
      positions: z.array(Position()),
      lastCoup: z.boolean().meta({
        description:
          'The shoe\'s last coup ("última mano"): true from the moment the round opens when that is known ' +
          '(ONE_MORE_COUP, the round after the cut card came out), else once dealt (the cut card came out in it), ' +
          'or once a dealer-error void burned its cards and they ended the shoe.',
      }),
      voidReason: VoidReason().nullable(),
      burned: BurnedCoup()
        .nullable()
        .meta({ description: 'Set when the round was voided with `burnCards`.' }),
      betsDigest: z.string().nullable().meta({ description: 'Digest of every bet, fixed at "no va más".' }),
      settlementsDigest: z.string().nullable(),
      head: SignedHead().nullable().meta({
        description: 'Once settled or voided: the signed chain head after it. Keep it: it is your receipt.',
      }),
      bettingClosed: z
        .object({
          beaconRound: z.int().min(1).meta({
            description:
              'The beacon round "no va más" named: the first published at least the margin after it. The coup\'s cards (or a dealer-error burn) are drawn from it, so nobody can know them before it is out.',
          }),
          head: SignedHead().nullable().meta({
            description:
              'The chain head right after BETTING_CLOSED, signed before that round is out: your receipt that the round was named in time (`baccarat verify --receipt`).',
          }),
          anchor: HeadAnchor().nullable().meta({
            description:
              "The head's RFC 3161 time-stamp, made before that round is out (null only while the close is still under way: a close answers 503 TIME_STAMP_PENDING until it exists). Keep it with the head.",
          }),
        })
        .nullable()
        .meta({
          description: 'pyb-shoe/3 shoes: set at "no va más" (POST /v1/rounds/{roundId}/close or resolve).',
        }),
      beacon: z
        .object({ round: z.int().min(1), signature: z.string() })
        .nullable()
        .meta({
          description:
            'pyb-shoe/3: the beacon round the cards were drawn from (the coup, or the burned cards), with its BLS signature.',
        }),
    })
    .meta({ id: 'Round' }),
);

export const PlaceBetResponse = /* @__PURE__ */ lazily(() =>
  z
    .object({
      position: Position().meta({ description: "The player's whole position in the round after this call." }),
      balance: MinorUnits().meta({ description: 'Wallet balance right after the bet.' }),
      entry: LedgerEntry(),
      realityCheck: z
        .object({
          sessionId: z.string(),
          minutesPlayed: z.int(),
          staked: MinorUnits(),
          net: z.int().meta({ description: 'Returns − stakes of the session so far.' }),
        })
        .optional()
        .meta({
          description:
            "Present when this bet is the first of the table session after a reality-check interval the player set (`realityCheckMinutes`) has passed: the client shows the reality check (time played, staked, net) before play goes on. Once per interval; recorded on the wallet's session.",
        }),
    })
    .meta({ id: 'PlaceBetResponse' }),
);

export const LeaveParams = /* @__PURE__ */ lazily(() =>
  z.strictObject({ tableId: ResourceId(), playerId: PlayerId() }),
);
export const LeaveTableRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({}).meta({ id: 'LeaveTableRequest' }),
);
export const LeaveTableResponse = /* @__PURE__ */ lazily(() =>
  z
    .object({
      tableId: z.string(),
      playerId: z.string(),
      commissionCollected: MinorUnits(),
      balance: MinorUnits(),
      seatReleased: Seat()
        .nullable()
        .meta({ description: 'The seat the player held at the table, now free.' }),
    })
    .meta({ id: 'LeaveTableResponse' }),
);
