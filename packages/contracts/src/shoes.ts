import { lazily } from '@pyb/engine';
import {
  BeaconNetworkSchema,
  clientSeedProblem,
  HeadAnchorSchema,
  ShoeCloseStatementSchema,
  ShoeStatementSchema,
  SignedHeadSchema,
  SignedKeyCertificateSchema,
} from '@pyb/fairness';
import * as z from 'zod';
import { Card, FreeText, Pagination, Timestamp } from './common';
import { ResourceId } from './ids';
import { ContributionKind, ShoeCloseReason, ShoeStatus } from './vocabulary';

export const ShoeParams = /* @__PURE__ */ lazily(() => z.strictObject({ shoeId: ResourceId() }));

export const OpenShoeRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({}).meta({ id: 'OpenShoeRequest' }),
);

export const CloseShoeRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      reason: ShoeCloseReason().optional().meta({
        description:
          'Required when the cut card has not ended the shoe (422 CLOSE_REASON_REQUIRED otherwise).',
      }),
    })
    .meta({ id: 'CloseShoeRequest' }),
);

/** An admin gives up a shoe whose audit chain broke at close (docs/regulators.md, "Lock-out"). */
export const AbandonShoeRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      reason: FreeText(500).meta({
        description:
          'Why the shoe is given up rather than repaired (recorded in SHOE_ABANDONED, reported to regulators).',
        example: 'audit item seq 7 deleted by a faulty migration; no backup holds it (ticket OPS-301)',
      }),
    })
    .meta({ id: 'AbandonShoeRequest' }),
);

/** A seed a player contributes: the client seed's grammar (@pyb/fairness clientSeedProblem). */
export const ContributeSeedRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      seed: z
        .string()
        .superRefine((seed, ctx) => {
          const problem = clientSeedProblem(seed);
          if (problem) ctx.addIssue({ code: 'custom', message: `the seed ${problem}` });
        })
        .meta({
          description:
            '1-256 UTF-8 bytes of well-formed Unicode, no control or bidirectional-formatting character. Public once the shoe closes: no personal data.',
          example: 'lucky 7 from seat 3',
        }),
    })
    .meta({ id: 'ContributeSeedRequest' }),
);

export const Contribution = /* @__PURE__ */ lazily(() =>
  z
    .object({
      shoeId: z.string(),
      index: z.int().min(0).meta({ description: "Its place among the shoe's seeds (0-based)." }),
      kind: ContributionKind(),
      seed: z.string(),
      seq: z.int().meta({ description: "The SEED_CONTRIBUTED event in the shoe's audit chain." }),
      head: z.string().meta({ description: 'hex hash of that event: the chain head right after it.' }),
      at: Timestamp(),
      // The contributor's receipt (C1): the chain head after his seed, signed; `baccarat verify --receipt` takes the whole answer.
      receipt: SignedHead(),
    })
    .meta({ id: 'Contribution' }),
);

export const SignedHead = /* @__PURE__ */ lazily(() =>
  SignedHeadSchema().meta({
    id: 'SignedHead',
    description:
      'A signed chain head (docs/provably-fair.md §11.3): keep it as a receipt; `baccarat verify --receipt` checks it against the closed shoe.',
  }),
);

export const HeadAnchor = /* @__PURE__ */ lazily(() =>
  HeadAnchorSchema().meta({
    id: 'HeadAnchor',
    description:
      "A signed head's outside time (docs/time-stamps.md): RFC 3161 tokens (base64 DER) of time-stamp authorities over `root`, the Merkle root of a window of head digests, and the head's inclusion proof. `baccarat verify --trust-tsa` checks it with the TSA certificates you pinned.",
  }),
);

// Signed objects are the verifier's (@pyb/fairness), strict: a field the schema does not know makes the
// response fail loudly instead of being stripped, which would silently break every client's signature
// check.
export const ShoeStatement = /* @__PURE__ */ lazily(() =>
  ShoeStatementSchema().meta({
    id: 'ShoeStatement',
    description: 'Signed (RFC 8785 JSON) and published before any bet.',
  }),
);

export const ShoeCloseStatement = /* @__PURE__ */ lazily(() =>
  ShoeCloseStatementSchema().meta({
    id: 'ShoeCloseStatement',
    description: "The audit-chain head (hex hash of the shoe's last event, `head`), signed at close.",
  }),
);

export const Shoe = /* @__PURE__ */ lazily(() =>
  z
    .object({
      shoeId: z.string(),
      tableId: z.string(),
      operatorId: z.string(),
      number: z.int().min(1).meta({ description: 'Number of the shoe on its table, from 1.' }),
      status: z.enum(['OPEN', 'CLOSED']),
      phase: ShoeStatus(),
      ended: z.boolean(),
      decks: z.int(),
      commitment: z
        .string()
        .meta({ description: 'hex SHA-256 of the server seed, published before any bet.' }),
      statement: ShoeStatement(),
      signature: z
        .string()
        .meta({ description: 'base64 DER ECDSA P-256 / SHA-256 over the canonical statement.' }),
      keyId: z.string(),
      clientSeed: z.string().nullable().meta({ description: 'Fixed when the first round opens.' }),
      rounds: z.int().min(0),
      coups: z.int().min(0),
      burn: z.object({ shown: Card(), burned: z.int() }).nullable(),
      openedAt: Timestamp(),
      closedAt: Timestamp().nullable(),
      serverSeed: z
        .string()
        .nullable()
        .meta({ description: 'hex; revealed when the shoe is closed, null before.' }),
      cutIndex: z.int().nullable().meta({ description: 'Revealed at close.' }),
      close: z.object({ statement: ShoeCloseStatement(), signature: z.string() }).nullable(),
      contributions: z
        .object({
          count: z.int().min(0),
          closedAt: Timestamp().nullable(),
          digest: z.string().nullable(),
          beaconRound: z.int().nullable().meta({ description: 'The beacon round that fixes the order.' }),
          head: SignedHead().nullable(),
        })
        .meta({ description: 'Seeds contributed; closed when the first round opened.' }),
      beacon: z
        .object({ round: z.int(), signature: z.string() })
        .nullable()
        .meta({ description: 'The beacon round, recorded before the first coup.' }),
      closeReason: ShoeCloseReason().nullable(),
      voids: z
        .object({ count: z.int(), houseNet: z.int() })
        .nullable()
        .meta({ description: 'Voided rounds and what they would have netted the house, once revealed.' }),
      abandoned: z
        .object({ at: Timestamp(), reason: z.string(), problems: z.array(z.string()) })
        .nullable()
        .meta({
          description:
            'Phase ABANDONED: close found the audit chain broken (`problems`) and an admin gave the shoe up (`reason`). Its seed is never revealed and it never verifies.',
        }),
    })
    .meta({ id: 'Shoe' }),
);

export const TableShoesParams = /* @__PURE__ */ lazily(() => z.strictObject({ tableId: ResourceId() }));
export const TableShoesQuery = /* @__PURE__ */ lazily(() => Pagination());

export const ShoeSummary = /* @__PURE__ */ lazily(() =>
  z
    .object({
      shoeId: z.string(),
      number: z.int().min(1),
      phase: ShoeStatus(),
      openedAt: Timestamp(),
      endedAt: Timestamp().nullable(),
      closedAt: Timestamp().nullable(),
      closeReason: ShoeCloseReason().nullable(),
      rounds: z.int().min(0),
      coups: z.int().min(0),
      commitment: z.string(),
      closeHead: z.string().nullable().meta({ description: "What the next shoe's statement names." }),
      voids: z.object({ count: z.int(), houseNet: z.int() }).nullable(),
    })
    .meta({ id: 'ShoeSummary' }),
);

export const ShoePage = /* @__PURE__ */ lazily(() =>
  z
    .object({ tableId: z.string(), shoes: z.array(ShoeSummary()), nextCursor: z.string().nullable() })
    .meta({ id: 'ShoePage' }),
);

export const SigningKeyQuery = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    keyId: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9:/_.-]{0,511}$/,
        'a key id, key ARN or alias (letters, digits, : / _ . -)',
      )
      .optional()
      .meta({
        description:
          'The key a statement or close statement names (`keyId`), current or retired. Default: the key that signs now.',
        example: 'arn:aws:kms:eu-west-1:111122223333:key/0d1b2a3c-4e5f-8a9b-0c1d-2e3f4a5b6c7d',
      }),
  }),
);

export const KeyCertificate = /* @__PURE__ */ lazily(() =>
  SignedKeyCertificateSchema().meta({
    id: 'KeyCertificate',
    description:
      'A signing-key generation and the interval it may sign in, signed by the previous generation (by the key itself for generation 1).',
  }),
);

export const SigningKey = /* @__PURE__ */ lazily(() =>
  z
    .object({
      keyId: z.string(),
      algorithm: z.literal('ECDSA_SHA_256'),
      curve: z.literal('P-256'),
      pem: z.string(),
      spki: z.string().meta({ description: 'base64 DER SubjectPublicKeyInfo' }),
      generation: z.int().nullable(),
      validFrom: Timestamp()
        .nullable()
        .meta({ description: 'null until the key signed for the first time.' }),
      validUntil: Timestamp().nullable().meta({
        description: 'When the next generation took over; null while current.',
      }),
      certificate: KeyCertificate().nullable(),
      certificates: z.array(KeyCertificate()).meta({
        description:
          "Every generation's certificate, oldest first (generation 1, 2, …): each generation may sign from its validFrom until the next one's. Save this answer and give it to `baccarat verify --key-certificates`: a verifier trusts a later generation only through these, never through a certificate found only in a bundle.",
      }),
      beacon: BeaconNetworkSchema().nullable().meta({
        description:
          "The randomness beacon network this deployment's shoe statements name (drand quicknet in production, a local beacon in development): a verifier that trusts this site's keys may trust it too (`baccarat verify --trust-beacon` takes this answer: the chain hash is recomputed from the fields). null: not known to this function.",
      }),
      timeStampAuthorities: z
        .array(
          z.object({
            tsa: z.string().meta({ description: 'The TSA as the tokens name it (its URL).' }),
            certificates: z.array(z.string()).meta({
              description: "PEM: the certificates this TSA's tokens are checked against.",
            }),
          }),
        )
        .meta({
          description:
            "The RFC 3161 time-stamp authorities that anchor this deployment's heads naming a beacon round (docs/time-stamps.md), with their certificates: a verifier that trusts this site's keys may pin these too (the web verifier does; `baccarat verify --trust-tsa` takes the PEM as obtained from the TSA). Empty when none is configured.",
        }),
    })
    .meta({ id: 'SigningKey' }),
);
