/**
 * API keys: `pyb_` + 32 random bytes in base64url. Hashing and randomness use Web Crypto, which
 * Node 20, Lambda and browsers share, so the core needs no Node import.
 */
const PREFIX = 'pyb_';
const KEY_SHAPE = /^pyb_[A-Za-z0-9_-]{43}$/;

const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Hex SHA-256 of the key's UTF-8 bytes: the only form in which a key is stored. */
export async function hashApiKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  return toHex(new Uint8Array(digest));
}

/** True when the text has the shape of a key we issue (cheap refusal before any lookup). */
export const looksLikeApiKey = (text: string): boolean => KEY_SHAPE.test(text);

export interface NewApiKey {
  key: string;
  keyHash: string;
  /** Public handle: `key_` + the first 12 hex digits of the hash. */
  keyId: string;
}

export async function generateApiKey(): Promise<NewApiKey> {
  const key = PREFIX + base64url(crypto.getRandomValues(new Uint8Array(32)));
  const keyHash = await hashApiKey(key);
  return { key, keyHash, keyId: `key_${keyHash.slice(0, 12)}` };
}
