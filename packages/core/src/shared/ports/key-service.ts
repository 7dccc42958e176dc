/**
 * The key service: where shoe seeds come from, how they are sealed at rest, and who signs shoe
 * statements and audit heads. AWS KMS in production; a Node-crypto stand-in locally.
 */
export interface SeedContext {
  shoeId: string;
  operatorId: string;
}

export interface Signature {
  /** ECDSA P-256 over SHA-256 of the message, DER-encoded (what KMS returns). */
  signature: Uint8Array;
  keyId: string;
}

export interface PublicKey {
  keyId: string;
  /** DER SubjectPublicKeyInfo. */
  spki: Uint8Array;
  pem: string;
}

export interface KeyService {
  /** 32 fresh random bytes. */
  generateSeed(): Promise<Uint8Array>;
  /** Encrypts a seed bound to its shoe and operator (KMS encryption context). */
  sealSeed(seed: Uint8Array, context: SeedContext): Promise<Uint8Array>;
  /** Decrypts a sealed seed; fails if the context differs from the one it was sealed with. */
  unsealSeed(sealed: Uint8Array, context: SeedContext): Promise<Uint8Array>;
  /**
   * Signs with the current signing key; `keyId` in the answer names it (statements carry it). With
   * `keyId`, signs with that key instead: only to certify the next generation at a key handover
   * (docs/deploy.md), which a retired key's policy then forbids for good.
   */
  sign(message: Uint8Array, keyId?: string): Promise<Signature>;
  /**
   * Without an id, the current signing key. With one, that key, current or retired: statements keep
   * the id of the key that signed them, and a rotation must not make them unverifiable. A key the
   * service does not know, or may not read, rejects with `code` SIGNING_KEY_UNKNOWN.
   */
  publicKey(keyId?: string): Promise<PublicKey>;
}

/** The `code` of the error `publicKey(keyId)` rejects with for a key the service cannot answer for. */
export const SIGNING_KEY_UNKNOWN = 'SIGNING_KEY_UNKNOWN';

export const isUnknownSigningKey = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === SIGNING_KEY_UNKNOWN;
