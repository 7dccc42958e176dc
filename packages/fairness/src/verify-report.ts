/** The verifier's report: one check per thing verified, and the verdict they add up to. */

export interface Check {
  /** Stable, dotted: `statement.signature`, `round.12.cards`, `audit.round.3.order`, … */
  id: string;
  ok: boolean;
  detail: string;
  /**
   * Consistent, but resting on something the caller did not say to trust (the bundle's own keys, a
   * beacon network other than drand quicknet). Such a check never makes the verdict `verified`.
   */
  untrusted?: true;
}

/**
 * verified: every check passed, with keys (and a beacon) the caller trusts. failed: some check failed.
 * untrusted: every check passed, but against keys or a beacon the caller did not say to trust — the
 * evidence is consistent, which anyone holding their own key can make it.
 */
export type Verdict = 'verified' | 'failed' | 'untrusted';

export interface Verification {
  verdict: Verdict;
  /** The input's format, when it had one this verifier reads. */
  format: string | null;
  shoeId: string | null;
  checks: Check[];
}

export class Report {
  readonly checks: Check[] = [];

  add(id: string, ok: boolean, detail: string): boolean {
    this.checks.push({ id, ok, detail });
    return ok;
  }

  /** A passed check that rests on something untrusted. */
  untrusted(id: string, detail: string): void {
    this.checks.push({ id, ok: true, detail, untrusted: true });
  }

  /** Runs `check`; an exception is a failed check, never a crash of the verifier. */
  try(id: string, check: () => [ok: boolean, detail: string]): boolean {
    try {
      return this.add(id, ...check());
    } catch (error) {
      return this.add(id, false, error instanceof Error ? error.message : String(error));
    }
  }

  /** `try` for a check that awaits (a signature: the curve is loaded on first use). */
  async tryAsync(id: string, check: () => Promise<[ok: boolean, detail: string]>): Promise<boolean> {
    try {
      return this.add(id, ...(await check()));
    } catch (error) {
      return this.add(id, false, error instanceof Error ? error.message : String(error));
    }
  }

  get verdict(): Verdict {
    if (this.checks.length === 0 || this.checks.some((c) => !c.ok)) return 'failed';
    return this.checks.some((c) => c.untrusted) ? 'untrusted' : 'verified';
  }
}
