/**
 * Batching and failover. `stampWithAny` asks every TSA for a token over one digest and keeps the
 * tokens that verify against that TSA's pinned certificates; when none does it rejects with
 * TSA_UNAVAILABLE listing each failure: the caller waits or locks the table, it never goes on
 * unanchored. `MerkleStamper` collects head digests for a window (the first digest of an empty window
 * schedules the flush on the injected scheduler), stamps the window's Merkle root once, and answers
 * each digest with its inclusion proof and the root's tokens.
 */
import type { TimeStampAuthority } from './authority';
import { toHex } from './der';
import { type AuthorityFailure, failureOf, TimeStampError } from './errors';
import { type InclusionProof, merkleTree } from './merkle';
import { type PinnedCertificates, type VerifiedTimeStamp, verifyTimeStampToken } from './verify';

export interface PinnedAuthority {
  readonly authority: TimeStampAuthority;
  /** The certificates its tokens must verify against. */
  readonly trusted: PinnedCertificates;
}

export interface AnchorToken {
  readonly authority: string;
  /** DER TimeStampToken over the root. */
  readonly token: Uint8Array;
  readonly verified: VerifiedTimeStamp;
}

export interface RootAnchor {
  /** The digest the tokens stamp. */
  readonly root: Uint8Array;
  /** At least one; in the order the authorities were given. */
  readonly tokens: readonly AnchorToken[];
  /** The authorities that gave no good token, and why. */
  readonly failures: readonly AuthorityFailure[];
}

export async function stampWithAny(
  digest: Uint8Array,
  authorities: readonly PinnedAuthority[],
): Promise<RootAnchor> {
  if (authorities.length === 0) throw new Error('no time-stamp authority configured');
  // All at once: the slowest bounds the wait (each HTTP client has its own timeout).
  const outcomes = await Promise.allSettled(
    authorities.map(async ({ authority, trusted }): Promise<AnchorToken> => {
      const token = await authority.stamp(digest);
      const verified = await verifyTimeStampToken(token, { imprint: digest, trusted });
      return { authority: authority.name, token, verified };
    }),
  );
  const tokens: AnchorToken[] = [];
  const failures: AuthorityFailure[] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') tokens.push(outcome.value);
    else failures.push(failureOf(authorities[i]!.authority.name, outcome.reason));
  });
  if (tokens.length === 0) {
    throw new TimeStampError(
      'TSA_UNAVAILABLE',
      `no time-stamp authority anchored ${toHex(digest)}: ${failures.map((f) => `${f.authority}: ${f.code}`).join('; ')}`,
      failures,
    );
  }
  return { root: digest, tokens, failures };
}

/** When to flush: the window's timer. Injected, so tests move time by hand. */
export interface Scheduler {
  schedule(delayMs: number, run: () => void): { cancel(): void };
}

export const timerScheduler: Scheduler = {
  schedule(delayMs, run) {
    const timer = setTimeout(run, delayMs);
    return { cancel: () => clearTimeout(timer) };
  },
};

export interface Anchor extends RootAnchor {
  readonly digest: Uint8Array;
  readonly proof: InclusionProof;
}

export interface MerkleStamperOptions {
  authorities: readonly PinnedAuthority[];
  scheduler: Scheduler;
  /** How long a window stays open after its first digest. */
  windowMs: number;
  /** A window this full is flushed at once. Default 4096. */
  maxLeaves?: number;
}

interface Waiting {
  digest: Uint8Array;
  resolve(anchor: Anchor): void;
  reject(error: unknown): void;
}

export class MerkleStamper {
  private window: Waiting[] = [];
  private timer: { cancel(): void } | undefined;

  constructor(private readonly options: MerkleStamperOptions) {
    if (options.authorities.length === 0) throw new Error('no time-stamp authority configured');
  }

  /** Digests waiting for the window to close. */
  get pending(): number {
    return this.window.length;
  }

  /** Anchors a 32-byte head digest; settles when its window is stamped (or TSA_UNAVAILABLE). */
  add(digest: Uint8Array): Promise<Anchor> {
    if (digest.length !== 32) throw new Error(`a head digest is 32 bytes (got ${digest.length})`);
    const anchored = new Promise<Anchor>((resolve, reject) => {
      this.window.push({ digest: digest.slice(), resolve, reject });
    });
    if (this.window.length >= (this.options.maxLeaves ?? 4096)) void this.flush();
    else if (!this.timer) {
      this.timer = this.options.scheduler.schedule(this.options.windowMs, () => void this.flush());
    }
    return anchored;
  }

  /** Closes the window now and stamps it; a no-op on an empty window. */
  async flush(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    const batch = this.window;
    this.window = [];
    if (batch.length === 0) return;
    const tree = merkleTree(batch.map((w) => w.digest));
    try {
      const anchor = await stampWithAny(tree.root, this.options.authorities);
      batch.forEach((w, i) => {
        w.resolve({ ...anchor, digest: w.digest, proof: tree.proof(i) });
      });
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
