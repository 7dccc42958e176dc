/**
 * The adapter of the core's time-stamp port (packages/core/src/shared/ports/time-stamps.ts): a
 * MerkleStamper's anchors in the shape the platform stores and the bundle carries — hex root and
 * siblings, base64 tokens — with the earliest instant a verified token vouches for (genTime plus its
 * accuracy). TSA_UNAVAILABLE is an answer (`UNAVAILABLE`), not a rejection: the caller waits or locks.
 */
import { pemOrDer, toHex, toPem } from './der';
import { TimeStampError } from './errors';
import type { MerkleStamper, PinnedAuthority } from './stamper';

export interface HeadAnchorAnswer {
  status: 'ANCHORED';
  anchor: {
    root: string;
    proof: { index: number; size: number; siblings: string[] };
    tokens: { tsa: string; token: string }[];
    existedBy: string;
  };
}

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

export function headAnchors(
  stamper: Pick<MerkleStamper, 'add'>,
  /** The stamper's TSAs and pins, published for verifiers (`authorities()`). */
  pinned: readonly PinnedAuthority[] = [],
): {
  anchor(digest: Uint8Array): Promise<HeadAnchorAnswer | { status: 'UNAVAILABLE'; reason: string }>;
  authorities(): { tsa: string; certificates: string[] }[];
} {
  return {
    authorities: () =>
      pinned.map(({ authority, trusted }) => ({
        tsa: authority.name,
        certificates: trusted.flatMap((c) => pemOrDer(c).map((der) => toPem(der))),
      })),
    async anchor(digest) {
      try {
        const anchor = await stamper.add(digest);
        const existedBy = Math.min(
          ...anchor.tokens.map((t) => Date.parse(t.verified.genTime) + (t.verified.accuracyMs ?? 0)),
        );
        return {
          status: 'ANCHORED',
          anchor: {
            root: toHex(anchor.root),
            proof: {
              index: anchor.proof.index,
              size: anchor.proof.size,
              siblings: anchor.proof.siblings.map((s) => toHex(s)),
            },
            tokens: anchor.tokens.map((t) => ({ tsa: t.authority, token: base64(t.token) })),
            existedBy: new Date(existedBy).toISOString(),
          },
        };
      } catch (error) {
        if (error instanceof TimeStampError && error.code === 'TSA_UNAVAILABLE')
          return { status: 'UNAVAILABLE', reason: error.message };
        throw error;
      }
    },
  };
}
