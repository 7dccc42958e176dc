/**
 * What an operator's wallet mode decides outside a round's money (that is the StakeSource port's,
 * rounds/stake-source.ts): who its players are, what a switch to the mode writes and what leaving it
 * must wait for. One object per mode, chosen once from the operator's record (`walletModeOf`) or the
 * mode asked for (`WALLET_MODE_RULES`); the use cases ask it and hold no mode test.
 */
import { SEAMLESS_FINAL_STATES, SECRET_REF_PATTERN, type WalletMode } from '@pyb/contracts';
import type { OperatorRecord, OperatorWalletInput, OperatorWalletState, WalletRecord } from '../shared';
import { DomainError } from '../shared';
import type { WalletCtx } from './ctx';

/** Leaving seamless: the seamless transactions of this period back from now must all be final. */
const SWITCH_PENDING_LOOKBACK_MS = 24 * 3_600_000;
/** Transactions the lookback walks at most: past it the switch is refused (the operator is not quiet). */
export const SWITCH_PENDING_WALK_MAX = 20_000;
/** Rounds and transactions a refusal names at most. */
export const NAMED_MAX = 20;
const FINAL = new Set<string>(SEAMLESS_FINAL_STATES);
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** The transactions a switch away from a mode must wait for; `more`: the walk stopped before the end. */
export interface Unfinished {
  pending: string[];
  more: boolean;
}

export interface WalletModeRules {
  readonly mode: WalletMode;
  /**
   * Whether a player of the operator is known (else he is not found): hosted, by his wallet item here;
   * seamless, always (his money is in the operator's wallet, none here).
   */
  knows(wallet: WalletRecord | undefined): boolean;
  /**
   * A switch to this mode: its input checked now (before any read), answering the state it writes
   * from the state read before it.
   */
  target(operatorId: string, input: OperatorWalletInput): (from: OperatorWalletState) => OperatorWalletState;
  /** Leaving this mode: what the operator's wallet still owes an answer for (not final yet). */
  unfinished(ctx: WalletCtx, operatorId: string): Promise<Unfinished>;
}

const hosted: WalletModeRules = {
  mode: 'hosted',
  knows: (wallet) => wallet !== undefined,
  // Leaving seamless keeps the wallet on the record: credits and rollbacks of the seamless time still
  // pending are delivered to it.
  target: () => (from) => ({ walletMode: 'hosted', ...(from.seamless && { seamless: from.seamless }) }),
  // Every hosted movement is final when its transaction commits.
  unfinished: async () => ({ pending: [], more: false }),
};

const seamless: WalletModeRules = {
  mode: 'seamless',
  knows: () => true,
  target: (operatorId, input) => {
    const wallet = checkSeamless(operatorId, input.seamless);
    return () => ({ walletMode: 'seamless', seamless: wallet });
  },
  async unfinished(ctx, operatorId) {
    const now = ctx.clock.now().getTime();
    const range = {
      from: new Date(now - SWITCH_PENDING_LOOKBACK_MS).toISOString(),
      to: new Date(now + 1).toISOString(),
    };
    const pending: string[] = [];
    let walked = 0;
    let cursor: string | undefined;
    do {
      const page = await ctx.store.listSeamlessTxs(operatorId, range, {
        limit: 1000,
        ...(cursor && { cursor }),
      });
      walked += page.items.length;
      for (const tx of page.items)
        if (!FINAL.has(tx.state) && pending.length < NAMED_MAX) pending.push(tx.txId);
      cursor = page.cursor;
    } while (cursor && pending.length < NAMED_MAX && walked <= SWITCH_PENDING_WALK_MAX);
    return { pending, more: Boolean(cursor) };
  },
};

/** The rules of each mode (a mode asked for, checked against WALLET_MODES first). */
export const WALLET_MODE_RULES: Readonly<Record<WalletMode, WalletModeRules>> = { hosted, seamless };

/** The rules of the operator's mode as its record says (no record: hosted). */
export const walletModeOf = (operator: Pick<OperatorRecord, 'walletMode'> | undefined): WalletModeRules =>
  WALLET_MODE_RULES[operator?.walletMode ?? 'hosted'];

const configInvalid = (message: string) => new DomainError('INVALID', 'SEAMLESS_CONFIG_INVALID', message);

/**
 * A seamless wallet the platform may call for this operator: https (plain http only to a loopback
 * host, which no Lambda can reach: the local stack and tests), no credentials, query or trailing
 * slash; the secret the operator's own — a Secrets Manager name or ARN whose name ends
 * `seamless/<operatorId>` (the stack creates `pyb-<stage>/seamless/<operatorId>`, and grants the
 * wallet-calling functions every seamless operator's secret: this keeps operator A's record from
 * signing with B's), or `env:NAME` with a loopback wallet only (a Lambda's environment holds no
 * wallet secret).
 */
function checkSeamless(
  operatorId: string,
  config: OperatorWalletInput['seamless'],
): NonNullable<OperatorRecord['seamless']> {
  const { baseUrl, secretRef } = config ?? {};
  if (typeof baseUrl !== 'string' || typeof secretRef !== 'string')
    throw configInvalid('a seamless operator needs its wallet base URL and secret reference');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw configInvalid('baseUrl is not a URL');
  }
  const loopback = LOOPBACK.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw configInvalid('the wallet base URL must be https (http only to a loopback host)');
  if (url.username || url.password || url.search || url.hash || baseUrl.endsWith('/') || /\s/.test(baseUrl))
    throw configInvalid('the wallet base URL has no credentials, query, fragment or trailing slash');
  if (!SECRET_REF_PATTERN.test(secretRef))
    throw configInvalid('secretRef is a Secrets Manager secret name or ARN (env:NAME on the local stack)');
  if (secretRef.startsWith('env:')) {
    if (!loopback) throw configInvalid('an env: secret goes with a loopback wallet only (the local stack)');
  } else {
    // An ARN's name carries the 6-character suffix Secrets Manager appends.
    const name = secretRef.startsWith('arn:')
      ? secretRef.replace(/^.*?:secret:(.+?)(-[A-Za-z0-9]{6})?$/, '$1')
      : secretRef;
    if (!(name === `seamless/${operatorId}` || name.endsWith(`/seamless/${operatorId}`)))
      throw configInvalid(`the secret of operator ${operatorId} is named …/seamless/${operatorId}`);
  }
  return { baseUrl, secretRef };
}
