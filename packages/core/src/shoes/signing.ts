/**
 * Everything the platform signs goes through here: the signing key is certified before its first
 * signature (docs/provably-fair.md §4.2) — generation 1 by itself, each later generation by the one
 * before it, at the handover — and chain heads are signed with it.
 */
import {
  bytesToBase64,
  HEAD_SCHEME,
  type HeadStatement,
  headStatementBytes,
  keyCertificate,
  keyCertificateBytes,
  keyCertificateDigest,
  type SignedHead,
  type SignedHeadEvent,
} from '@pyb/fairness';
import type { AuditRecord, Ctx, KeyCertificateRecord, StoredAnchor } from '../shared';
import { DomainError, TransactionCanceled, unavailable } from '../shared';
import { eventAt, latest } from '../trail';

/** Every generation's certificate, oldest first (cached: a certificate is written once, never changed). */
export async function keyCertificates(
  ctx: Pick<Ctx, 'store' | 'certificates'>,
): Promise<KeyCertificateRecord[]> {
  const out: KeyCertificateRecord[] = [];
  for (let generation = 1; ; generation++) {
    let record = ctx.certificates.get(generation);
    if (!record) {
      record = await ctx.store.get('keyCertificate', { generation });
      if (!record) return out;
      ctx.certificates.set(generation, record);
    }
    out.push(record);
  }
}

const uncertified = (message: string) =>
  new DomainError('UNAVAILABLE', 'SIGNING_KEY_UNCERTIFIED', message, { retryAfterSeconds: 60 });

/** Seconds before a rotation that waits for its time-stamp is worth trying again. */
const ROTATION_STAMP_RETRY_SECONDS = 1;

/**
 * The outside witness of a rotation (F3, docs/provably-fair.md §4.2): the new generation's signed
 * certificate is time-stamped before it is stored, so the key never signs without it and a verifier
 * lets it sign only from the stamp's time. No TSA answering: 503 TIME_STAMP_PENDING, nothing stored
 * (the next call certifies afresh). A function with no TSA at all cannot certify a successor.
 */
async function stampRotation(
  ctx: Ctx,
  signed: Pick<KeyCertificateRecord, 'certificate' | 'signature'>,
): Promise<StoredAnchor> {
  const { generation, keyId } = signed.certificate;
  const answer = await ctx.timeStamper.anchor(keyCertificateDigest(signed)).catch((error: Error) => {
    throw uncertified(
      `the certificate of generation ${generation} (${keyId}) must be time-stamped before the key signs, and ${error.message}`,
    );
  });
  if (answer.status === 'UNAVAILABLE') {
    throw unavailable(
      'TIME_STAMP_PENDING',
      `the rotation to generation ${generation} (${keyId}) waits for a time-stamp: ${answer.reason}`,
      ROTATION_STAMP_RETRY_SECONDS,
    );
  }
  return answer.anchor;
}

/**
 * The current signing key, with its certificate. The first time a key signs, it is certified: by
 * itself when no key was certified before, else by the newest certified generation. After a key
 * rotation that certification needs kms:Sign on the previous key, which the stack grants only during
 * the handover deploy (docs/deploy.md); outside it nothing is signed (SIGNING_KEY_UNCERTIFIED), so
 * no statement, head or close ever carries a key without a validity interval. A successor's
 * certificate is time-stamped before it is stored (`stampRotation`).
 */
export async function certifiedKey(ctx: Ctx): Promise<KeyCertificateRecord> {
  const current = await ctx.keys.publicKey();
  for (let attempt = 0; attempt < 3; attempt++) {
    const certificates = await keyCertificates(ctx);
    const found = certificates.find((c) => c.certificate.keyId === current.keyId);
    if (found) {
      if (found !== certificates.at(-1)) {
        throw uncertified(
          `the signing key ${current.keyId} is generation ${found.generation}, but generation ${certificates.length} took over from it: a retired key signs nothing`,
        );
      }
      return found;
    }
    const previous = certificates.at(-1);
    const certificate = keyCertificate({
      keyId: current.keyId,
      generation: (previous?.generation ?? 0) + 1,
      spki: current.spki,
      validFrom: ctx.now(),
      previousKeyId: previous?.certificate.keyId ?? null,
    });
    let signature: Uint8Array;
    try {
      const signed = await ctx.keys.sign(keyCertificateBytes(certificate), previous?.certificate.keyId);
      signature = signed.signature;
    } catch (error) {
      if (!previous) throw error;
      throw uncertified(
        `the signing key ${current.keyId} has no certificate, and generation ${previous.generation} (${previous.certificate.keyId}) could not sign one: run the key handover (docs/deploy.md, Rotate keys)`,
      );
    }
    const signed = { certificate, signature: bytesToBase64(signature) };
    const record: KeyCertificateRecord = {
      generation: certificate.generation,
      ...signed,
      ...(previous && { anchor: await stampRotation(ctx, signed) }),
    };
    try {
      await ctx.store.transact([
        { kind: 'put', entity: 'keyCertificate', key: { generation: record.generation }, item: record },
      ]);
      ctx.certificates.set(record.generation, record);
      return record;
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      // Another process certified this generation (or another key took it) first: read again.
    }
  }
  throw uncertified(`the signing key ${current.keyId} could not be certified`);
}

/** Signs with the current key, certified first; the answer names the key. */
export async function signCertified(
  ctx: Ctx,
  message: Uint8Array,
): Promise<{ keyId: string; signature: string }> {
  const { certificate } = await certifiedKey(ctx);
  const signed = await ctx.keys.sign(message);
  if (signed.keyId !== certificate.keyId) {
    throw new Error(`signed with ${signed.keyId}, but the certified key is ${certificate.keyId}`);
  }
  return { keyId: signed.keyId, signature: bytesToBase64(signed.signature) };
}

/** The chain head right after `record` (CONTRIBUTIONS_CLOSED, ROUND_SETTLED or ROUND_VOIDED), signed now. */
export async function signHead(
  ctx: Ctx,
  shoe: { shoeId: string; commitment: string },
  record: AuditRecord,
  type: SignedHeadEvent,
): Promise<SignedHead> {
  const { certificate } = await certifiedKey(ctx);
  // Never dated before the event it covers or before its key's validity (clocks of two functions differ).
  const at = latest(ctx.now(), eventAt(record) ?? certificate.validFrom, certificate.validFrom);
  const statement: HeadStatement = {
    scheme: HEAD_SCHEME,
    shoeId: shoe.shoeId,
    commitment: shoe.commitment,
    seq: record.seq,
    type,
    roundId: record.roundId ?? null,
    head: record.hash,
    at,
    keyId: certificate.keyId,
  };
  const signed = await signCertified(ctx, headStatementBytes(statement));
  return { statement, signature: signed.signature };
}
