/**
 * A head's outside witness (docs/time-stamps.md, docs/provably-fair.md §15.11): an RFC 3161 token of
 * a time-stamp authority the platform does not control over the head's digest — or over the Merkle
 * root of a window of head digests, with the head's inclusion proof. A pyb-shoe/3 head that names a
 * beacon round (CONTRIBUTIONS_CLOSED names R₀, BETTING_CLOSED names Rₖ) is anchored before that round
 * is published; the verifier wants the anchor's time before the publication.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { base64, count, hex32 } from './bundle-fields';
import { canonicalJson } from './canonical';
import type { SignedHead } from './heads';

/** An outside time-stamp of one digest: the tokens over the root of its window, and its place there. */
export interface TimeStampAnchor {
  /** hex: the digest the tokens stamp (the Merkle root of the window). */
  root: string;
  /** The head digest's place under the root (docs/time-stamps.md §3.3); siblings hex. */
  proof: { index: number; size: number; siblings: string[] };
  /** One per TSA that answered: its name as configured, and the DER TimeStampToken in base64. */
  tokens: { tsa: string; token: string }[];
}

export interface HeadAnchor extends TimeStampAnchor {
  /** The seq of the event whose signed head is anchored. */
  seq: number;
}

/**
 * The bytes stamped for a head: SHA-256 of the UTF-8 JCS of the whole signed head
 * (`{ statement, signature }`), so the token fixes both the claim and its signature.
 */
export const headDigest = (head: SignedHead): Uint8Array =>
  sha256(new TextEncoder().encode(canonicalJson({ statement: head.statement, signature: head.signature })));

const anchorShape = () => ({
  root: hex32(),
  proof: z
    .object({
      index: count(),
      size: z
        .number()
        .int()
        .min(1)
        .max(1 << 20),
      siblings: z.array(hex32()).max(64),
    })
    .strict(),
  tokens: z
    .array(z.object({ tsa: z.string().min(1).max(200), token: base64() }).strict())
    .min(1)
    .max(8),
});

export const TimeStampAnchorSchema = /* @__PURE__ */ lazily(() => z.object(anchorShape()).strict());

export const HeadAnchorSchema = /* @__PURE__ */ lazily(() =>
  z.object({ seq: count(), ...anchorShape() }).strict(),
);
