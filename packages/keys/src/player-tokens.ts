/**
 * The key that signs player access tokens (the core's TokenSigner port; the JWTs themselves are made
 * and verified by the core with `jose`, shared/auth/player-tokens.ts). On AWS an ECC_NIST_P256 KMS key
 * of its own (not the statement-signing key: a token key that leaked could sign no shoe statement), whose
 * private half never leaves KMS: kms:Sign when a session opens or refreshes (every few minutes per
 * player, not per request), kms:GetPublicKey once per container to verify every request locally.
 * Locally a P-256 key in a file of the local keys folder (dev and tests only).
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { TokenSigner } from '@pyb/core';
import { createOnce } from './create-once';
import { KeyServiceError, LOCAL_KEYS_REFUSED } from './errors';

const P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

const importSpki = (spki: Uint8Array): Promise<CryptoKey> =>
  crypto.subtle.importKey('spki', new Uint8Array(spki), P256, true, ['verify']);

/** A DER ECDSA-Sig-Value (SEQUENCE of two INTEGERs, what KMS answers) as JWS's raw r||s (RFC 7518 §3.4). */
export function derToJose(der: Uint8Array, size = 32): Uint8Array {
  let at = 0;
  const byte = () => {
    const b = der[at++];
    if (b === undefined) throw new Error('truncated DER signature');
    return b;
  };
  const length = () => {
    const first = byte();
    if (first < 0x80) return first;
    let n = 0;
    for (let i = 0; i < (first & 0x7f); i++) n = (n << 8) | byte();
    return n;
  };
  if (byte() !== 0x30) throw new Error('a DER signature is a SEQUENCE');
  length();
  const out = new Uint8Array(size * 2);
  for (const offset of [0, size]) {
    if (byte() !== 0x02) throw new Error('a DER signature holds INTEGERs');
    let n = length();
    let start = at;
    at += n;
    // Leading zero bytes (a positive INTEGER's sign byte) are not part of the value.
    while (n > size && der[start] === 0) {
      start++;
      n--;
    }
    if (n > size) throw new Error('a DER signature INTEGER longer than the curve');
    out.set(der.subarray(start, start + n), offset + size - n);
  }
  return out;
}

export interface KmsTokenSignerOptions {
  /** The KMS key (id or ARN) of the player tokens: ECC_NIST_P256, SIGN_VERIFY. Its `kid` too. */
  keyId: string;
  client?: KMSClient;
  region?: string;
}

export class KmsTokenSigner implements TokenSigner {
  readonly keyId: string;
  private client?: KMSClient;
  private publicKey?: Promise<CryptoKey>;

  constructor(private readonly options: KmsTokenSignerOptions) {
    this.keyId = options.keyId;
    if (options.client) this.client = options.client;
  }

  /** The SDK, imported on first use (as kms.ts: a function that never signs never loads it). */
  private async kms() {
    const sdk = await import('@aws-sdk/client-kms');
    this.client ??= new sdk.KMSClient(this.options.region ? { region: this.options.region } : {});
    return { sdk, client: this.client };
  }

  async sign(signingInput: Uint8Array): Promise<Uint8Array> {
    const { sdk, client } = await this.kms();
    const out = await client.send(
      new sdk.SignCommand({
        KeyId: this.keyId,
        Message: signingInput,
        MessageType: 'RAW',
        SigningAlgorithm: 'ECDSA_SHA_256',
      }),
    );
    if (!out.Signature?.length)
      throw new KeyServiceError('KEY_SERVICE_BAD_RESPONSE', 'KMS Sign: no signature');
    return derToJose(out.Signature);
  }

  verifyingKey(keyId: string): Promise<CryptoKey | undefined> {
    if (keyId !== this.keyId) return Promise.resolve(undefined);
    this.publicKey ??= this.fetchPublicKey();
    // A failed read is not kept: the next request asks again.
    this.publicKey.catch(() => {
      this.publicKey = undefined;
    });
    return this.publicKey;
  }

  private async fetchPublicKey(): Promise<CryptoKey> {
    const { sdk, client } = await this.kms();
    const out = await client.send(new sdk.GetPublicKeyCommand({ KeyId: this.keyId }));
    if (
      !out.PublicKey?.length ||
      out.KeySpec !== 'ECC_NIST_P256' ||
      !out.SigningAlgorithms?.includes('ECDSA_SHA_256')
    ) {
      throw new KeyServiceError(
        'KEY_SERVICE_BAD_RESPONSE',
        `KMS key ${this.keyId} is not an ECC_NIST_P256 signing key`,
      );
    }
    return importSpki(out.PublicKey);
  }
}

/** The local stand-in: `player-token.pem` in the local keys folder, made on first use. */
export class LocalTokenSigner implements TokenSigner {
  readonly keyId: string;
  private readonly pem: string;
  private readonly spki: Uint8Array;
  private publicKey?: Promise<CryptoKey>;

  constructor(options: { dir: string; env?: Record<string, string | undefined> }) {
    const env = options.env ?? process.env;
    if (env.NODE_ENV === 'production' || env.STAGE === 'prod' || env.AWS_LAMBDA_FUNCTION_NAME) {
      throw new KeyServiceError('LOCAL_KEYS_IN_PRODUCTION', LOCAL_KEYS_REFUSED);
    }
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    const path = join(options.dir, 'player-token.pem');
    const fresh = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    createOnce(path, fresh.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string);
    this.pem = readFileSync(path, 'utf8');
    this.spki = new Uint8Array(
      createPublicKey(createPrivateKey(this.pem)).export({ format: 'der', type: 'spki' }),
    );
    this.keyId = `local-${createHash('sha256').update(this.spki).digest('hex').slice(0, 12)}`;
  }

  async sign(signingInput: Uint8Array): Promise<Uint8Array> {
    return new Uint8Array(sign('sha256', signingInput, { key: this.pem, dsaEncoding: 'ieee-p1363' }));
  }

  verifyingKey(keyId: string): Promise<CryptoKey | undefined> {
    if (keyId !== this.keyId) return Promise.resolve(undefined);
    this.publicKey ??= importSpki(this.spki);
    return this.publicKey;
  }
}

/**
 * TOKEN_KEY_ID set: KMS (AWS). Else the local key in LOCAL_KEYS_DIR; a Lambda bundle refuses that
 * (as the local key service: factory.ts).
 */
export function tokenSignerFromEnv(env: Record<string, string | undefined> = process.env): TokenSigner {
  if (env.TOKEN_KEY_ID) {
    return new KmsTokenSigner({
      keyId: env.TOKEN_KEY_ID,
      ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}),
    });
  }
  // Compiled out of a Lambda bundle (LAMBDA_BUNDLE_DEFINE), as the local key service is.
  if (process.env.PYB_LAMBDA_BUNDLE !== '1')
    return new LocalTokenSigner({ dir: env.LOCAL_KEYS_DIR ?? '.data/keys', env });
  throw new KeyServiceError('LOCAL_KEYS_IN_PRODUCTION', LOCAL_KEYS_REFUSED);
}
