import { ShoeCloseStatementSchema, ShoeStatementSchema } from '@pyb/fairness';
import * as z from 'zod';
import { Card, Timestamp } from './common';
import { ResourceId } from './ids';
import { ShoeStatus } from './vocabulary';

export const ShoeParams = z.strictObject({ shoeId: ResourceId });

export const OpenShoeRequest = z.strictObject({}).meta({ id: 'OpenShoeRequest' });
export const CloseShoeRequest = z.strictObject({}).meta({ id: 'CloseShoeRequest' });

// Signed objects are the verifier's (@pyb/fairness), strict: a field the schema does not know makes the
// response fail loudly instead of being stripped, which would silently break every client's signature
// check.
export const ShoeStatement = ShoeStatementSchema.meta({
  id: 'ShoeStatement',
  description: 'Signed (RFC 8785 JSON) and published before any bet.',
});

export const ShoeCloseStatement = ShoeCloseStatementSchema.meta({
  id: 'ShoeCloseStatement',
  description: "The audit-chain head (hex hash of the shoe's last event, `head`), signed at close.",
});

export const Shoe = z
  .object({
    shoeId: z.string(),
    tableId: z.string(),
    operatorId: z.string(),
    number: z.int().min(1).meta({ description: 'Number of the shoe on its table, from 1.' }),
    status: z.enum(['OPEN', 'CLOSED']),
    phase: ShoeStatus,
    ended: z.boolean(),
    decks: z.int(),
    commitment: z.string().meta({ description: 'hex SHA-256 of the server seed, published before any bet.' }),
    statement: ShoeStatement,
    signature: z
      .string()
      .meta({ description: 'base64 DER ECDSA P-256 / SHA-256 over the canonical statement.' }),
    keyId: z.string(),
    clientSeed: z.string().nullable().meta({ description: 'Fixed when the first round opens.' }),
    rounds: z.int().min(0),
    coups: z.int().min(0),
    burn: z.object({ shown: Card, burned: z.int() }).nullable(),
    openedAt: Timestamp,
    closedAt: Timestamp.nullable(),
    serverSeed: z
      .string()
      .nullable()
      .meta({ description: 'hex; revealed when the shoe is closed, null before.' }),
    cutIndex: z.int().nullable().meta({ description: 'Revealed at close.' }),
    close: z.object({ statement: ShoeCloseStatement, signature: z.string() }).nullable(),
  })
  .meta({ id: 'Shoe' });

export const SigningKeyQuery = z.strictObject({
  keyId: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9:/_.-]{0,511}$/, 'a key id, key ARN or alias (letters, digits, : / _ . -)')
    .optional()
    .meta({
      description:
        'The key a statement or close statement names (`keyId`), current or retired. Default: the key that signs now.',
      example: 'arn:aws:kms:eu-west-1:111122223333:key/0d1b2a3c-4e5f-8a9b-0c1d-2e3f4a5b6c7d',
    }),
});

export const SigningKey = z
  .object({
    keyId: z.string(),
    algorithm: z.literal('ECDSA_SHA_256'),
    curve: z.literal('P-256'),
    pem: z.string(),
    spki: z.string().meta({ description: 'base64 DER SubjectPublicKeyInfo' }),
  })
  .meta({ id: 'SigningKey' });
