/**
 * The local stand-in for KMS (dev and tests): same port, Node crypto, keys kept in a data folder.
 * Sealing is AES-256-GCM with the encryption context as additional authenticated data, so a seed
 * opened for another shoe or operator fails exactly as KMS Decrypt would. Never for production.
 *
 * Signing keys come in generations, as in production (docs/deploy.md, *Rotate keys*): `sign.pem` is
 * the first, `sign-<n>.pem` the n-th. `rotateSigningKey()` adds one; earlier ones stay, so statements
 * they signed still verify (`publicKey(keyId)`). A running service signs with the newest generation
 * it has seen: another process's rotation reaches it at its next start, as a deploy reaches Lambda.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign as signWith,
} from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyService, PublicKey, SeedContext, Signature } from '@pyb/core';
import { createOnce } from './create-once';
import { KeyServiceError, LOCAL_KEYS_REFUSED } from './errors';
import { SEED_BYTES } from './seed';

const SEAL_VERSION = 1;
/**
 * While a file of this name is in the folder, every call that uses a key fails as a KMS key with a
 * missing permission would (not retryable: the use cases lock the table) — to see a lock-out locally
 * (README, "A short tour"). `publicKey` keeps answering, as GetPublicKey would. Dev only: no Lambda
 * bundle holds this class.
 */
export const LOCAL_KEYS_FAIL_FILE = 'fail';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface LocalKeyServiceOptions {
  /** Folder holding the keys (created if missing), e.g. `.data/keys`. */
  dir: string;
  /** Deployment stage; `prod` is refused. */
  stage?: string;
  /** Environment checked for NODE_ENV=production and a Lambda runtime (defaults to process.env). */
  env?: Record<string, string | undefined>;
}

const newSigningKeyPem = (): string =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    format: 'pem',
    type: 'pkcs8',
  }) as string;

/** `sign.pem` is generation 1 (the name data folders had before rotation existed). */
const SIGN_FILE = /^sign(?:-([1-9]\d*))?\.pem$/;
const signFile = (generation: number) => (generation === 1 ? 'sign.pem' : `sign-${generation}.pem`);

interface Generation {
  generation: number;
  privateKey: KeyObject;
  key: PublicKey;
}

/** AAD bound into every sealed seed: fixed key order, so the same context always gives the same bytes. */
const aad = (context: SeedContext): Buffer =>
  Buffer.from(JSON.stringify({ operatorId: context.operatorId, shoeId: context.shoeId }), 'utf8');

export class LocalKeyService implements KeyService {
  private readonly dir: string;
  private readonly sealKey: Buffer;
  /** The generation this service signs with. */
  private signing: Generation;
  /** Every generation seen in the folder, by key id. */
  private readonly known = new Map<string, PublicKey>();
  /** Their private halves, by key id (a handover certifies the next generation with the previous). */
  private readonly generations = new Map<string, Generation>();

  constructor(options: LocalKeyServiceOptions) {
    const env = options.env ?? process.env;
    // Lambda never runs the local service: dev and tests call handlers in-process.
    if (env.NODE_ENV === 'production' || options.stage === 'prod' || env.AWS_LAMBDA_FUNCTION_NAME) {
      throw new KeyServiceError('LOCAL_KEYS_IN_PRODUCTION', LOCAL_KEYS_REFUSED);
    }
    this.dir = options.dir;
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    const sealPath = join(options.dir, 'seal.key');
    createOnce(sealPath, randomBytes(32));
    createOnce(join(options.dir, signFile(1)), newSigningKeyPem());
    this.sealKey = readFileSync(sealPath);
    if (this.sealKey.length !== 32)
      throw new KeyServiceError('KEY_SERVICE_MISCONFIGURED', `${sealPath} is not a 32-byte key`);
    this.signing = this.scan();
  }

  /** Throws while the fail file is in the folder (LOCAL_KEYS_FAIL_FILE). */
  private failOnDemand(call: string): void {
    const path = join(this.dir, LOCAL_KEYS_FAIL_FILE);
    if (existsSync(path)) {
      throw new KeyServiceError(
        'KEY_SERVICE_MISCONFIGURED',
        `the local key service refuses ${call} while ${path} exists (a failure on demand: delete the file)`,
      );
    }
  }

  /** Reads every generation in the folder into `known`; returns the newest. */
  private scan(): Generation {
    let newest: Generation | undefined;
    for (const name of readdirSync(this.dir)) {
      const match = SIGN_FILE.exec(name);
      if (!match) continue;
      const generation = match[1] === undefined ? 1 : Number(match[1]);
      const loaded = this.load(generation);
      if (!newest || loaded.generation > newest.generation) newest = loaded;
    }
    if (!newest) throw new KeyServiceError('KEY_SERVICE_MISCONFIGURED', `no signing key in ${this.dir}`);
    return newest;
  }

  private load(generation: number): Generation {
    const path = join(this.dir, signFile(generation));
    const privateKey = createPrivateKey(readFileSync(path));
    if (
      privateKey.asymmetricKeyType !== 'ec' ||
      privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1'
    ) {
      throw new KeyServiceError('KEY_SERVICE_MISCONFIGURED', `${path} is not a P-256 private key`);
    }
    const publicKey = createPublicKey(privateKey);
    const spki = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }));
    const key: PublicKey = {
      keyId: `local:${createHash('sha256').update(spki).digest('hex').slice(0, 32)}`,
      spki,
      pem: publicKey.export({ format: 'pem', type: 'spki' }) as string,
    };
    this.known.set(key.keyId, key);
    const loaded = { generation, privateKey, key };
    this.generations.set(key.keyId, loaded);
    return loaded;
  }

  /**
   * A new signing key (the next generation), as a production key rotation makes one: this service
   * signs with it from now on, and keeps answering for the earlier ones. Used by tests and by hand.
   */
  rotateSigningKey(): PublicKey {
    const next = this.scan().generation + 1;
    // If another process took this number first, its key is the newest: both then sign with it.
    createOnce(join(this.dir, signFile(next)), newSigningKeyPem());
    this.signing = this.scan();
    return this.signing.key;
  }

  async generateSeed(): Promise<Uint8Array> {
    this.failOnDemand('generateSeed');
    return new Uint8Array(randomBytes(SEED_BYTES));
  }

  async sealSeed(seed: Uint8Array, context: SeedContext): Promise<Uint8Array> {
    this.failOnDemand('sealSeed');
    if (seed.length !== SEED_BYTES) throw new RangeError(`a seed is ${SEED_BYTES} bytes`);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    cipher.setAAD(aad(context));
    const body = Buffer.concat([cipher.update(seed), cipher.final()]);
    return new Uint8Array(Buffer.concat([Buffer.of(SEAL_VERSION), iv, body, cipher.getAuthTag()]));
  }

  async unsealSeed(sealed: Uint8Array, context: SeedContext): Promise<Uint8Array> {
    this.failOnDemand('unsealSeed');
    const blob = Buffer.from(sealed);
    if (blob.length !== 1 + IV_BYTES + SEED_BYTES + TAG_BYTES || blob[0] !== SEAL_VERSION) {
      throw new KeyServiceError('SEALED_SEED_INVALID', 'sealed seed has the wrong format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, blob.subarray(1, 1 + IV_BYTES));
    decipher.setAAD(aad(context));
    decipher.setAuthTag(blob.subarray(blob.length - TAG_BYTES));
    try {
      return new Uint8Array(
        Buffer.concat([
          decipher.update(blob.subarray(1 + IV_BYTES, blob.length - TAG_BYTES)),
          decipher.final(),
        ]),
      );
    } catch (error) {
      throw new KeyServiceError(
        'SEALED_SEED_INVALID',
        'sealed seed does not open with this context (another shoe or operator) or was altered',
        false,
        { cause: error },
      );
    }
  }

  async sign(message: Uint8Array, keyId?: string): Promise<Signature> {
    this.failOnDemand('sign');
    const generation = keyId === undefined ? this.signing : this.generations.get(keyId);
    if (!generation)
      throw new KeyServiceError('SIGNING_KEY_UNKNOWN', `no signing key ${keyId} in ${this.dir}`);
    const { privateKey, key } = generation;
    const signature = signWith('sha256', message, { key: privateKey, dsaEncoding: 'der' });
    return { signature: new Uint8Array(signature), keyId: key.keyId };
  }

  async publicKey(keyId?: string): Promise<PublicKey> {
    if (keyId === undefined) return this.signing.key;
    let key = this.known.get(keyId);
    // Another process may have rotated since this one last looked.
    if (!key && keyId.startsWith('local:')) {
      this.scan();
      key = this.known.get(keyId);
    }
    if (!key) {
      throw new KeyServiceError('SIGNING_KEY_UNKNOWN', `no signing key ${keyId} in ${this.dir}`);
    }
    return key;
  }
}
