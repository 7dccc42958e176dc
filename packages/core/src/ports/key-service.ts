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
  sign(message: Uint8Array): Promise<Signature>;
  publicKey(): Promise<PublicKey>;
}
