/**
 * An operator's wallet mode (docs/seamless-wallet.md §10, docs/deploy.md "Seamless operators"): read by
 * the operator's keys and its regulators, set by a platform-admin key only. What the platform checks
 * past the schema (https, the secret being the operator's own, nothing in play when the mode changes)
 * is the use case's (packages/core/src/wallet/operators.ts).
 */
import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { Timestamp } from './common';
import { OperatorId } from './ids';
import { WALLET_MODES } from './seamless-wallet';

/** An operator's wallet URL: https (http only to a loopback host: the local stack and tests). */
export const WALLET_URL_MAX = 500;
/** A Secrets Manager ARN or name (at most 512 characters), or `env:NAME` on the local stack. */
export const SECRET_REF_PATTERN =
  /^(?:arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:)?[A-Za-z0-9/_+=.@-]{1,512}$|^env:[A-Z_][A-Z0-9_]{0,127}$/;

export const OperatorWalletParams = /* @__PURE__ */ lazily(() =>
  z.strictObject({ operatorId: OperatorId() }),
);

export const SeamlessWalletConfig = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      baseUrl: z
        .url({ protocol: /^https?$/ })
        .max(WALLET_URL_MAX)
        .refine((u) => !u.endsWith('/'), 'no trailing slash')
        .meta({
          description:
            "The operator's wallet base URL, without a trailing slash: https (http only to a loopback host, the local stack).",
          example: 'https://wallet.casino-b.example/pyb',
        }),
      secretRef: z
        .string()
        .regex(SECRET_REF_PATTERN, 'a Secrets Manager secret ARN or name (or env:NAME on the local stack)')
        .meta({
          description:
            "Where the HMAC secret is: the operator's Secrets Manager secret (name or ARN), named `…/seamless/<operatorId>` — never the secret itself.",
          example: 'pyb-prod/seamless/casino-b',
        }),
    })
    .meta({ id: 'SeamlessWalletConfig' }),
);

export const SetOperatorWalletRequest = /* @__PURE__ */ lazily(() =>
  z
    .discriminatedUnion('walletMode', [
      z.strictObject({ walletMode: z.literal('hosted') }),
      z.strictObject({ walletMode: z.literal('seamless'), seamless: SeamlessWalletConfig() }),
    ])
    .meta({
      id: 'SetOperatorWalletRequest',
      description:
        'The wallet mode wanted. Asking for the mode and wallet the operator already has changes nothing (no new change is recorded).',
    }),
);

const WalletState = /* @__PURE__ */ lazily(() =>
  z.object({
    walletMode: z.enum(WALLET_MODES),
    seamless: SeamlessWalletConfig().optional(),
  }),
);

export const OperatorWalletChange = /* @__PURE__ */ lazily(() =>
  z
    .object({
      seq: z.int().min(0),
      at: Timestamp(),
      by: z
        .object({
          role: z.string(),
          operatorId: z.string(),
          keyId: z.string().optional().meta({ description: 'The API key (or `provision:<user>`).' }),
        })
        .meta({ description: 'Who made the change.' }),
      from: WalletState().meta({ description: 'The mode and wallet before the change.' }),
      to: WalletState().meta({ description: 'The mode and wallet after it.' }),
    })
    .meta({ id: 'OperatorWalletChange' }),
);

export const OperatorWallet = /* @__PURE__ */ lazily(() =>
  z
    .object({
      operatorId: z.string(),
      walletMode: z.enum(WALLET_MODES),
      seamless: SeamlessWalletConfig().optional().meta({
        description:
          'The wallet the platform calls. Kept after a switch to hosted: credits and rollbacks of the seamless time still pending are delivered to it.',
      }),
      updatedAt: Timestamp().nullable().meta({ description: 'Null: never set (hosted, the default).' }),
      effectiveBy: Timestamp().nullable().meta({
        description:
          'When every API container has seen the last change (containers cache the record up to 60 s).',
      }),
      changes: z.array(OperatorWalletChange()).meta({ description: 'Every change, oldest first.' }),
    })
    .meta({ id: 'OperatorWallet' }),
);

/** GET /v1/me: the calling API key, and what its role may do (a console offers only those controls). */
export const KeyIdentity = /* @__PURE__ */ lazily(() =>
  z
    .object({
      operatorId: z.string(),
      role: z.enum(['admin', 'operator', 'regulator']),
      platform: z
        .boolean()
        .meta({ description: "A platform-admin key (it alone sets operators' wallet modes)." }),
      supervises: z.array(z.string()).meta({ description: 'Regulator keys: the operators they read.' }),
      keyId: z.string().nullable().meta({ description: "The key's public handle (audit records name it)." }),
      may: z
        .object({
          openAndCloseShoes: z.boolean(),
          deal: z.boolean().meta({ description: 'Open rounds, close betting, resolve and void them.' }),
          moveMoney: z.boolean().meta({ description: 'Credit and debit wallets; bet for players.' }),
          setWalletModes: z.boolean(),
        })
        .meta({ description: "What the role may do, as the API enforces it (the routes' roles)." }),
    })
    .meta({ id: 'KeyIdentity' }),
);
