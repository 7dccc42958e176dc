import * as z from 'zod';
import { Card, ResourceId, Timestamp } from './common';
import { TableConfig } from './tables';

export const ShoeParams = z.strictObject({ shoeId: ResourceId });

/** Optional when opening a shoe: the client seed can also come with the first round. */
export const ClientSeed = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x20-\x7e]+$/, 'printable ASCII')
  .meta({ id: 'ClientSeed', description: 'Fixed after the commitment is published, before the first card.' });

export const OpenShoeRequest = z.strictObject({}).meta({ id: 'OpenShoeRequest' });
export const CloseShoeRequest = z.strictObject({}).meta({ id: 'CloseShoeRequest' });

// Signed objects are strict: a field the schema does not know makes the response fail loudly instead
// of being stripped, which would silently break every client's signature check.
const ShoeStatement = z
  .strictObject({
    scheme: z.string(),
    shoeId: z.string(),
    tableId: z.string(),
    operatorId: z.string(),
    rulesVersion: z.string(),
    decks: z.int(),
    cutCard: z.strictObject({ minCardsBehind: z.int(), maxCardsBehind: z.int() }),
    table: TableConfig,
    commitment: z.string(),
    createdAt: z.string(),
    keyId: z.string(),
  })
  .meta({ id: 'ShoeStatement', description: 'Signed (RFC 8785 JSON) and published before any bet.' });

const ShoeCloseStatement = z
  .strictObject({
    scheme: z.string(),
    shoeId: z.string(),
    commitment: z.string(),
    head: z.string().meta({ description: "hex hash of the shoe's last audit event" }),
    length: z.int(),
    closedAt: z.string(),
    keyId: z.string(),
  })
  .meta({ id: 'ShoeCloseStatement', description: 'The audit-chain head, signed at close.' });

export const Shoe = z
  .object({
    shoeId: z.string(),
    tableId: z.string(),
    operatorId: z.string(),
    number: z.int().min(1).meta({ description: 'Number of the shoe on its table, from 1.' }),
    status: z.enum(['OPEN', 'CLOSED']),
    phase: z.enum(['OPEN', 'ENDED', 'CLOSING', 'CLOSED']).meta({
      description: 'ENDED: the cut card came out, no more rounds; close it to reveal the seed.',
    }),
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
