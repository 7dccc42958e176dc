import { z } from 'zod';
import { Card, ResourceId, Timestamp } from './common';

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

export const Shoe = z
  .object({
    shoeId: z.string(),
    tableId: z.string(),
    operatorId: z.string(),
    status: z.enum(['OPEN', 'CLOSED']),
    decks: z.int(),
    commitment: z.string().meta({ description: 'hex SHA-256 of the server seed, published before any bet.' }),
    statement: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The signed shoe statement (RFC 8785 JSON).' }),
    signature: z
      .string()
      .meta({ description: 'base64 DER ECDSA P-256 / SHA-256 over the canonical statement.' }),
    keyId: z.string(),
    clientSeed: z.string().nullable(),
    coups: z.int().min(0),
    burn: z.object({ shown: Card, burned: z.int() }).nullable(),
    openedAt: Timestamp,
    closedAt: Timestamp.nullable(),
    serverSeed: z
      .string()
      .nullable()
      .meta({ description: 'hex; revealed when the shoe is closed, null before.' }),
  })
  .meta({ id: 'Shoe' });

export const SigningKey = z
  .object({
    keyId: z.string(),
    algorithm: z.literal('ECDSA_SHA_256'),
    curve: z.literal('P-256'),
    pem: z.string(),
    spki: z.string().meta({ description: 'base64 DER SubjectPublicKeyInfo' }),
  })
  .meta({ id: 'SigningKey' });
