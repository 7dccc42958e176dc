/**
 * KeyService on AWS KMS: GenerateRandom for seeds, Encrypt/Decrypt under a symmetric key with the
 * seed's {shoeId, operatorId} as encryption context, Sign/GetPublicKey on an ECC_NIST_P256 key, and
 * GetPublicKey by id for the keys earlier generations signed with (a rotation retains them).
 * No game rules here: bytes in, bytes out, errors mapped to KeyServiceError.
 */
import type { GetPublicKeyCommandOutput, KMSClient } from '@aws-sdk/client-kms';
import { type KeyService, onFirstUse, type PublicKey, type SeedContext, type Signature } from '@pyb/core';
import { KeyServiceError } from './errors';
import { spkiToPem } from './pem';
import { SEED_BYTES } from './seed';

/** KMS refuses RAW messages above 4096 bytes. */
export const MAX_RAW_MESSAGE_BYTES = 4096;

export interface KmsKeyServiceOptions {
  /** Symmetric key (id, ARN or alias) that seals seeds. */
  sealKeyId: string;
  /** Asymmetric ECC_NIST_P256 SIGN_VERIFY key (id, ARN or alias) that signs statements. */
  signKeyId: string;
  client?: KMSClient;
  region?: string;
}

const UNAVAILABLE = new Set([
  'ThrottlingException',
  'KMSInternalException',
  'DependencyTimeoutException',
  'KeyUnavailableException',
  'TimeoutError',
  'RequestTimeout',
]);
const MISCONFIGURED = new Set([
  'AccessDeniedException',
  'NotFoundException',
  'DisabledException',
  'KMSInvalidStateException',
  'InvalidKeyUsageException',
  'InvalidArnException',
  'IncorrectKeyException',
  'UnrecognizedClientException',
  'InvalidGrantTokenException',
]);

/**
 * GetPublicKey refusals that mean "not a signing key this service can answer for" when the id came
 * from a caller: no such key, a malformed id, a key outside the functions' grant, a symmetric key.
 */
const NOT_A_SIGNING_KEY = new Set([
  'NotFoundException',
  'InvalidArnException',
  'AccessDeniedException',
  'UnsupportedOperationException',
  'InvalidKeyUsageException',
  'ValidationException',
]);

export function mapKmsError(operation: string, error: unknown): KeyServiceError {
  const name = error instanceof Error ? error.name : 'UnknownError';
  const text = error instanceof Error ? error.message : String(error);
  const message = `KMS ${operation} failed: ${name}: ${text}`;
  if (name === 'InvalidCiphertextException') {
    return new KeyServiceError('SEALED_SEED_INVALID', message, false, { cause: error });
  }
  if (UNAVAILABLE.has(name))
    return new KeyServiceError('KEY_SERVICE_UNAVAILABLE', message, true, { cause: error });
  if (MISCONFIGURED.has(name))
    return new KeyServiceError('KEY_SERVICE_MISCONFIGURED', message, false, { cause: error });
  return new KeyServiceError('KEY_SERVICE_FAILED', message, false, { cause: error });
}

const badResponse = (operation: string, what: string) =>
  new KeyServiceError('KEY_SERVICE_BAD_RESPONSE', `KMS ${operation} returned ${what}`);

/** The encryption context KMS binds to the ciphertext (string map, fixed key names). */
export const encryptionContext = (context: SeedContext): Record<string, string> => ({
  shoeId: context.shoeId,
  operatorId: context.operatorId,
});

type Kms = typeof import('@aws-sdk/client-kms');

export class KmsKeyService implements KeyService {
  /** The configured (current) signing key. */
  private current: Promise<PublicKey> | undefined;
  /** Keys asked for by id: public keys never change, so a retired key's stays cached too. */
  private readonly byId = new Map<string, Promise<PublicKey>>();

  /**
   * The KMS client and its commands, loaded on the first call (`onFirstUse`): the bundles of the
   * functions that hold a key service then neither parse nor evaluate the client at a cold start's
   * import, only when they first seal, sign or read a key (docs/architecture.md, "What a function loads").
   */
  private readonly load: () => Promise<{ kms: Kms; client: KMSClient }>;

  constructor(private readonly options: KmsKeyServiceOptions) {
    this.load = onFirstUse(async () => {
      const kms = await import('@aws-sdk/client-kms');
      return {
        kms,
        client: options.client ?? new kms.KMSClient(options.region ? { region: options.region } : {}),
      };
    });
  }

  private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw mapKmsError(operation, error);
    }
  }

  async generateSeed(): Promise<Uint8Array> {
    const { kms, client } = await this.load();
    const out = await this.call('GenerateRandom', () =>
      client.send(new kms.GenerateRandomCommand({ NumberOfBytes: SEED_BYTES })),
    );
    if (out.Plaintext?.length !== SEED_BYTES)
      throw badResponse('GenerateRandom', `${out.Plaintext?.length ?? 0} bytes`);
    return out.Plaintext;
  }

  async sealSeed(seed: Uint8Array, context: SeedContext): Promise<Uint8Array> {
    if (seed.length !== SEED_BYTES) throw new RangeError(`a seed is ${SEED_BYTES} bytes`);
    const { kms, client } = await this.load();
    const out = await this.call('Encrypt', () =>
      client.send(
        new kms.EncryptCommand({
          KeyId: this.options.sealKeyId,
          Plaintext: seed,
          EncryptionContext: encryptionContext(context),
        }),
      ),
    );
    if (!out.CiphertextBlob?.length) throw badResponse('Encrypt', 'no ciphertext');
    return out.CiphertextBlob;
  }

  async unsealSeed(sealed: Uint8Array, context: SeedContext): Promise<Uint8Array> {
    const { kms, client } = await this.load();
    const out = await this.call('Decrypt', () =>
      client.send(
        new kms.DecryptCommand({
          // Naming the key makes KMS refuse a ciphertext sealed under any other key.
          KeyId: this.options.sealKeyId,
          CiphertextBlob: sealed,
          EncryptionContext: encryptionContext(context),
        }),
      ),
    );
    if (out.Plaintext?.length !== SEED_BYTES)
      throw badResponse('Decrypt', `${out.Plaintext?.length ?? 0} bytes`);
    return out.Plaintext;
  }

  /** `keyId`: another key than the configured one (the previous generation, at a key handover). */
  async sign(message: Uint8Array, keyId?: string): Promise<Signature> {
    if (message.length > MAX_RAW_MESSAGE_BYTES) {
      throw new RangeError(
        `KMS signs RAW messages of at most ${MAX_RAW_MESSAGE_BYTES} bytes (got ${message.length})`,
      );
    }
    const { kms, client } = await this.load();
    const out = await this.call('Sign', () =>
      client.send(
        new kms.SignCommand({
          KeyId: keyId ?? this.options.signKeyId,
          Message: message,
          MessageType: 'RAW',
          SigningAlgorithm: 'ECDSA_SHA_256',
        }),
      ),
    );
    if (!out.Signature?.length || !out.KeyId) throw badResponse('Sign', 'no signature');
    return { signature: out.Signature, keyId: out.KeyId };
  }

  publicKey(keyId?: string): Promise<PublicKey> {
    // Cache promises so concurrent callers share one request; forget a failure so a later call
    // retries instead of replaying the error forever.
    if (keyId === undefined) {
      this.current ??= this.fetchPublicKey(this.options.signKeyId, false).then(
        (key) => {
          // Statements name their key by the ARN KMS answered with: looking it up costs no request.
          if (!this.byId.has(key.keyId)) this.byId.set(key.keyId, Promise.resolve(key));
          return key;
        },
        (error: unknown) => {
          this.current = undefined;
          throw error;
        },
      );
      return this.current;
    }
    let pending = this.byId.get(keyId);
    if (!pending) {
      pending = this.fetchPublicKey(keyId, true).catch((error: unknown) => {
        this.byId.delete(keyId);
        throw error;
      });
      this.byId.set(keyId, pending);
    }
    return pending;
  }

  /** `named`: the caller asked for this id (a statement's key, a query), not for the configured key. */
  private async fetchPublicKey(keyId: string, named: boolean): Promise<PublicKey> {
    const { kms, client } = await this.load();
    let out: GetPublicKeyCommandOutput;
    try {
      out = await client.send(new kms.GetPublicKeyCommand({ KeyId: keyId }));
    } catch (error) {
      const mapped = mapKmsError('GetPublicKey', error);
      // A named key KMS will not show us is unknown to this service; the configured key missing is
      // a broken setup.
      if (named && error instanceof Error && NOT_A_SIGNING_KEY.has(error.name)) {
        throw new KeyServiceError('SIGNING_KEY_UNKNOWN', mapped.message, false, { cause: error });
      }
      throw mapped;
    }
    if (!out.PublicKey?.length || !out.KeyId) throw badResponse('GetPublicKey', 'no key');
    if (out.KeySpec !== 'ECC_NIST_P256' || !out.SigningAlgorithms?.includes('ECDSA_SHA_256')) {
      throw new KeyServiceError(
        named ? 'SIGNING_KEY_UNKNOWN' : 'KEY_SERVICE_MISCONFIGURED',
        `KMS key ${out.KeyId} is ${out.KeySpec}, expected ECC_NIST_P256 with ECDSA_SHA_256`,
      );
    }
    return { keyId: out.KeyId, spki: out.PublicKey, pem: spkiToPem(out.PublicKey) };
  }
}
