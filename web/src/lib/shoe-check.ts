/**
 * The published shoe checked in the browser with the fairness library: the statement's signature under
 * the key the API publishes for its key id, and the commitment the shoe shows is the signed one.
 */
import {
  keyFingerprint,
  parsePublicKey,
  type ShoeStatement,
  statementBytes,
  verifyBase64Signature,
} from '@pyb/fairness';
import { get } from './api';
import type { Shoe, SigningKey } from './types';

export interface ShoeCheck {
  ok: boolean;
  text: string;
}

export async function checkShoeStatement(
  shoe: Pick<Shoe, 'statement' | 'signature' | 'keyId' | 'commitment'>,
): Promise<ShoeCheck> {
  if (shoe.statement.commitment !== shoe.commitment) {
    return { ok: false, text: 'the commitment shown is not the one in the signed statement' };
  }
  let key: SigningKey;
  try {
    key = await get<SigningKey>(`/v1/signing-key`, { query: { keyId: shoe.keyId } });
  } catch {
    return {
      ok: false,
      text: `the API does not publish the key ${shoe.keyId}: the signature cannot be checked`,
    };
  }
  const spki = parsePublicKey(key.pem);
  // The contract types the statement loosely (scheme: string); the bytes signed are its canonical JSON.
  const statement = shoe.statement as unknown as ShoeStatement;
  const ok = await verifyBase64Signature(statementBytes(statement), shoe.signature, spki);
  const fingerprint = keyFingerprint(spki).slice(0, 16);
  return ok
    ? { ok, text: `signature valid (ECDSA P-256, key ${shoe.keyId}, SHA-256 ${fingerprint}…)` }
    : { ok, text: `the signature does not verify under the published key ${shoe.keyId}` };
}
