import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { Amount, Currency, MinorUnits } from './common';
import { PlayerId, ResourceId } from './ids';

/*
 * The seamless wallet protocol (docs/seamless-wallet.md): the API an operator implements so that the
 * player's one balance stays in the operator's system. The platform is the client: it calls
 * balance, debit (a bet), credit (a payout, a refund, a commission release) and rollback (cancel a
 * debit whose outcome it does not know, or that it could not honour). These schemas are the one
 * source: the platform's client checks every answer with them, the reference operator wallet
 * (packages/seamless-wallet) validates every request with them, and the OpenAPI document
 * `/v1/seamless-wallet.openapi.json` is built from them.
 */

/** Protocol version, sent as `X-Pyb-Protocol` on every request. */
export const SEAMLESS_PROTOCOL = 'pyb-seamless/1';

/** Headers of a signed message (requests and answers). */
export const SEAMLESS_HEADERS = {
  timestamp: 'x-pyb-timestamp',
  signature: 'x-pyb-signature',
  protocol: 'x-pyb-protocol',
} as const;

/** The operations, each one `POST {walletBaseUrl}/{operation}`. */
export const SEAMLESS_OPERATIONS = ['balance', 'debit', 'credit', 'rollback'] as const;
export type SeamlessOperation = (typeof SEAMLESS_OPERATIONS)[number];

/** A seamless transaction id: stable across every retry of the same call, unique per call. */
export const SeamlessTxId = /* @__PURE__ */ lazily(() =>
  z
    .string()
    .regex(
      /^(dbt|crd|rbk)_[A-Za-z0-9_-]{16,60}$/,
      'dbt_/crd_/rbk_ then 16-60 of letters, digits, "_" and "-"',
    )
    .meta({
      id: 'SeamlessTxId',
      description:
        'The platform’s id of this call, the same on every retry of it: `dbt_` a debit, `crd_` a credit, `rbk_` a rollback. The wallet applies a transaction id at most once and answers a repeat with the first answer.',
      example: 'dbt_3kq9Zp0c7Lr2VxM1aBcD4eF5',
    }),
);

const References = /* @__PURE__ */ lazily(() => ({
  txId: SeamlessTxId(),
  playerId: PlayerId(),
  currency: Currency(),
  amount: Amount(),
  roundId: ResourceId().meta({
    description: 'The round (coup) the money belongs to.',
    example: 'rnd_01jd8x4k2m9q7w3e5r6t8y0u1i',
  }),
  tableId: ResourceId().meta({
    description: 'The table of the round.',
    example: 'tbl_01jd8x4k2m9q7w3e5r6t8y0u1i',
  }),
  betRef: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .meta({
      description:
        'The bet this money belongs to: the position `roundId:playerId` and the call that moved it; the same on every retry.',
      example: 'rnd_01jd8x4k2m9q7w3e5r6t8y0u1i:player-1:bet-7f3a2c',
    }),
}));

export const SeamlessBalanceRequest = /* @__PURE__ */ lazily(() =>
  z.object({ playerId: PlayerId(), currency: Currency() }).strict().meta({ id: 'SeamlessBalanceRequest' }),
);

/**
 * The part of `amount` that is a commission reserve (deferred-commission tables): optional and
 * additive, so a wallet that ignores it books exactly the same.
 */
const CommissionReserve = /* @__PURE__ */ lazily(() =>
  z.int().min(1).max(Number.MAX_SAFE_INTEGER).optional().meta({
    description:
      'The part of `amount` that is a commission reserve (minor units; absent = 0). On a table that defers commission to the end of the shoe, a Banca bet is debited its stake plus the commission it would owe if it won; the reserve is kept as that commission when it wins, else given back by a COMMISSION_RELEASE credit. Informational: book `amount` as a whole.',
    example: 50,
  }),
);

export const SeamlessDebitRequest = /* @__PURE__ */ lazily(() =>
  z
    .object({ ...References(), commissionReserve: CommissionReserve() })
    .strict()
    .meta({
      id: 'SeamlessDebitRequest',
      description:
        'Take `amount` from the player for a bet (its stake, plus `commissionReserve` if any). Refuse (422) if the player may not bet it (funds, limits, exclusion): nothing is taken then.',
    }),
);

export const CREDIT_KINDS = ['PAYOUT', 'REFUND', 'COMMISSION_RELEASE'] as const;

export const SeamlessCreditRequest = /* @__PURE__ */ lazily(() =>
  z
    .object({
      ...References(),
      kind: z.enum(CREDIT_KINDS).meta({
        description:
          'PAYOUT: stake back plus winnings of a settled position; REFUND: stakes of a voided round or a withdrawn bet (with their commission reserves, `commissionReserve`); COMMISSION_RELEASE: the commission reserve of a Banca bet that lost or pushed, given back.',
      }),
      commissionReserve: CommissionReserve(),
      debitTxIds: z.array(SeamlessTxId()).min(1).max(100).optional().meta({
        description:
          'COMMISSION_RELEASE: the debits of the bet whose reserve this gives back (the same round, player and table).',
      }),
    })
    .strict()
    .meta({
      id: 'SeamlessCreditRequest',
      description:
        'Give `amount` to the player. A credit is never refused for funds or limits: answer 200 once it is booked.',
    }),
);

export const SeamlessRollbackRequest = /* @__PURE__ */ lazily(() =>
  z
    .object({
      ...References(),
      debitTxId: SeamlessTxId().meta({ description: 'The debit to cancel.' }),
      commissionReserve: CommissionReserve(),
    })
    .strict()
    .meta({
      id: 'SeamlessRollbackRequest',
      description:
        'Cancel the debit `debitTxId` (same player, amount, currency and references). If it was applied, give the amount back; if it never arrived, book nothing, and refuse that debit from now on (422 DEBIT_ROLLED_BACK). Either way answer 200: after a rollback the debit has no effect.',
    }),
);

/** The answer of every operation that succeeded (200). */
export const SeamlessOk = /* @__PURE__ */ lazily(() =>
  z
    .object({
      txId: SeamlessTxId().optional().meta({ description: 'The request’s txId (absent on balance).' }),
      playerId: PlayerId(),
      currency: Currency(),
      balance: MinorUnits()
        .min(0)
        .max(Number.MAX_SAFE_INTEGER)
        .meta({ description: 'The player’s balance after this call, in minor units.' }),
      operatorTxId: z
        .string()
        .regex(/^[\x21-\x7e]{1,128}$/)
        .optional()
        .meta({ description: 'The wallet’s own id of the booking (for reconciliation).' }),
      applied: z.boolean().optional().meta({
        description:
          'Rollback only: true if a debit was given back, false if the debit had never been applied (nothing booked).',
      }),
    })
    .strict()
    .meta({ id: 'SeamlessOk' }),
);

/**
 * Definite refusals (422): nothing was booked and nothing will be. Any other answer (another status,
 * a body not matching these schemas, a bad signature, no answer in time) is an UNKNOWN outcome.
 */
export const SEAMLESS_REFUSALS = [
  'INSUFFICIENT_FUNDS',
  'PLAYER_BLOCKED',
  'LIMIT_EXCEEDED',
  'UNKNOWN_PLAYER',
  'CURRENCY_MISMATCH',
  'DEBIT_ROLLED_BACK',
  'TX_MISMATCH',
] as const;
export type SeamlessRefusalCode = (typeof SEAMLESS_REFUSALS)[number];

export const SeamlessRefusal = /* @__PURE__ */ lazily(() =>
  z
    .object({
      code: z.enum(SEAMLESS_REFUSALS).meta({
        description:
          'INSUFFICIENT_FUNDS, PLAYER_BLOCKED (excluded, cooling off, suspended), LIMIT_EXCEEDED (a responsible-gaming limit), UNKNOWN_PLAYER, CURRENCY_MISMATCH: the debit is refused. DEBIT_ROLLED_BACK: this debit was rolled back before it arrived. TX_MISMATCH: this txId was used with another body.',
      }),
      message: z.string().max(500).optional(),
    })
    .strict()
    .meta({ id: 'SeamlessRefusal' }),
);

/** 401 when a request's signature or timestamp is not accepted (nothing was booked). */
export const SeamlessAuthError = /* @__PURE__ */ lazily(() =>
  z
    .object({ code: z.enum(['BAD_SIGNATURE', 'STALE_TIMESTAMP']), message: z.string().max(500).optional() })
    .strict()
    .meta({ id: 'SeamlessAuthError' }),
);

export type SeamlessBalanceRequest = z.infer<ReturnType<typeof SeamlessBalanceRequest>>;
export type SeamlessDebitRequest = z.infer<ReturnType<typeof SeamlessDebitRequest>>;
export type SeamlessCreditRequest = z.infer<ReturnType<typeof SeamlessCreditRequest>>;
export type SeamlessRollbackRequest = z.infer<ReturnType<typeof SeamlessRollbackRequest>>;
export type SeamlessOk = z.infer<ReturnType<typeof SeamlessOk>>;
export type SeamlessRefusal = z.infer<ReturnType<typeof SeamlessRefusal>>;
export type CreditKind = (typeof CREDIT_KINDS)[number];

/** The request schema of each operation. */
export const SEAMLESS_REQUESTS = /* @__PURE__ */ lazily(
  () =>
    ({
      balance: SeamlessBalanceRequest(),
      debit: SeamlessDebitRequest(),
      credit: SeamlessCreditRequest(),
      rollback: SeamlessRollbackRequest(),
    }) as const satisfies Record<SeamlessOperation, z.ZodType>,
);

export interface SeamlessRequests {
  balance: SeamlessBalanceRequest;
  debit: SeamlessDebitRequest;
  credit: SeamlessCreditRequest;
  rollback: SeamlessRollbackRequest;
}

/** The platform's record of a seamless transaction: its state (docs/seamless-wallet.md, state machine). */
export const SEAMLESS_TX_STATES = [
  'DEBIT_PENDING',
  'DEBITED',
  'DEBIT_REFUSED',
  'ROLLBACK_PENDING',
  'ROLLED_BACK',
  'CREDIT_PENDING',
  'CREDITED',
] as const;
export type SeamlessTxState = (typeof SEAMLESS_TX_STATES)[number];
/** States nobody needs to act on any more. */
export const SEAMLESS_FINAL_STATES: readonly SeamlessTxState[] = [
  'DEBITED',
  'DEBIT_REFUSED',
  'ROLLED_BACK',
  'CREDITED',
];

/** The platform's seamless transaction ops: one record per call the operator's wallet sees (its txId). */
export const SEAMLESS_TX_OPS = ['DEBIT', 'CREDIT', 'ROLLBACK'] as const;
export type SeamlessTxOp = (typeof SEAMLESS_TX_OPS)[number];

/**
 * What one call to an operator's wallet came to (docs/seamless-wallet.md, "What the platform makes of
 * an answer"): the outcome the platform's client returns and the core's `Wallet` port speaks.
 */
export type SeamlessOutcome =
  | { outcome: 'OK'; answer: SeamlessOk }
  | { outcome: 'REFUSED'; code: SeamlessRefusalCode; message?: string }
  | { outcome: 'UNKNOWN'; reason: string };

/** How an operator's players hold their money: in the platform's wallets, or in the operator's own. */
export const WALLET_MODES = ['hosted', 'seamless'] as const;
export type WalletMode = (typeof WALLET_MODES)[number];
