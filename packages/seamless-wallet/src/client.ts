/**
 * The platform's client of an operator's seamless wallet (docs/seamless-wallet.md). One call = one
 * signed POST; its outcome is exactly one of:
 *
 * - `OK`: a signed 200 whose body matches the schema and echoes the request's txId, player and
 *   currency — the wallet booked it (or had booked it: a repeat gets the first answer);
 * - `REFUSED`: a signed 422 with a refusal code — nothing was booked, nothing will be for this txId;
 * - `UNKNOWN`: anything else (no answer in time, a network error, another status, a body or a
 *   signature that does not check). The call may or may not have been booked. The caller never turns
 *   an unknown debit into a new debit: it rolls it back; credits and rollbacks are simply sent again
 *   (same txId) until they are OK.
 *
 * The client holds no rules beyond this classification and never retries by itself: retries belong
 * to the outbox (credits, rollbacks) and never happen for debits.
 */
import {
  SEAMLESS_HEADERS,
  SEAMLESS_PROTOCOL,
  SeamlessOk as SeamlessOkSchema,
  type SeamlessOperation,
  type SeamlessOutcome,
  SeamlessRefusal as SeamlessRefusalSchema,
  type SeamlessRequests,
} from '@pyb/contracts';
import { nowSeconds, sign, verify } from './signature';

/** One call's outcome (the contracts' `SeamlessOutcome`, which the core's Wallet port speaks too). */
export type WalletOutcome = SeamlessOutcome;

/** The shared secrets: `current` signs; answers are accepted under `current` or `previous` (rotation). */
export interface SeamlessSecrets {
  current: string;
  previous?: string;
}

export interface SeamlessWalletClientOptions {
  /** The operator's wallet base URL, e.g. `https://wallet.operator.example/pyb` (no trailing slash). */
  baseUrl: string;
  /** The secrets, or a function read on every call (an adapter caches Secrets Manager behind it), so a rotation needs no restart. */
  secrets: SeamlessSecrets | (() => Promise<SeamlessSecrets> | SeamlessSecrets);
  /** Give up waiting for an answer after this long: the outcome is then UNKNOWN. Default 3000 ms. */
  timeoutMs?: number;
  /** Unix seconds (tests move the clock). */
  now?: () => number;
}

export const DEFAULT_WALLET_TIMEOUT_MS = 3000;

export class SeamlessWalletClient {
  private readonly baseUrl: string;
  private readonly basePath: string;

  constructor(private readonly options: SeamlessWalletClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.basePath = new URL(this.baseUrl).pathname.replace(/\/+$/, '');
  }

  balance(request: SeamlessRequests['balance']): Promise<WalletOutcome> {
    return this.call('balance', request);
  }
  debit(request: SeamlessRequests['debit']): Promise<WalletOutcome> {
    return this.call('debit', request);
  }
  credit(request: SeamlessRequests['credit']): Promise<WalletOutcome> {
    return this.call('credit', request);
  }
  rollback(request: SeamlessRequests['rollback']): Promise<WalletOutcome> {
    return this.call('rollback', request);
  }

  async call<O extends SeamlessOperation>(
    operation: O,
    request: SeamlessRequests[O],
  ): Promise<WalletOutcome> {
    const source = this.options.secrets;
    const secrets = typeof source === 'function' ? await source() : source;
    const now = this.options.now ?? nowSeconds;
    const path = `${this.basePath}/${operation}`;
    const body = JSON.stringify(request);
    const timestamp = String(now());
    let response: Response;
    let text: string;
    try {
      // One deadline for the whole exchange, body included: a wallet that starts answering and
      // stalls is as unknown as one that never answers.
      const signal = AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_WALLET_TIMEOUT_MS);
      response = await fetch(`${this.baseUrl}/${operation}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SEAMLESS_HEADERS.protocol]: SEAMLESS_PROTOCOL,
          [SEAMLESS_HEADERS.timestamp]: timestamp,
          [SEAMLESS_HEADERS.signature]: sign(secrets.current, { first: 'POST', path, timestamp, body }),
        },
        body,
        signal,
      });
      text = await response.text();
    } catch (error) {
      return {
        outcome: 'UNKNOWN',
        reason: `no answer: ${(error as Error).name}: ${(error as Error).message}`,
      };
    }
    if (response.status !== 200 && response.status !== 422)
      return { outcome: 'UNKNOWN', reason: `status ${response.status}` };
    const failure = verify(
      [secrets.current, ...(secrets.previous ? [secrets.previous] : [])],
      {
        first: String(response.status),
        path,
        timestamp: response.headers.get(SEAMLESS_HEADERS.timestamp) ?? '',
        body: text,
      },
      response.headers.get(SEAMLESS_HEADERS.signature) ?? undefined,
      now(),
    );
    if (failure) return { outcome: 'UNKNOWN', reason: `answer ${failure}` };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { outcome: 'UNKNOWN', reason: 'answer is not JSON' };
    }
    if (response.status === 422) {
      const refusal = SeamlessRefusalSchema().safeParse(json);
      if (!refusal.success)
        return { outcome: 'UNKNOWN', reason: '422 answer does not match SeamlessRefusal' };
      return {
        outcome: 'REFUSED',
        code: refusal.data.code,
        ...(refusal.data.message !== undefined && { message: refusal.data.message }),
      };
    }
    const ok = SeamlessOkSchema().safeParse(json);
    if (!ok.success) return { outcome: 'UNKNOWN', reason: '200 answer does not match SeamlessOk' };
    const sent = request as { txId?: string; playerId: string; currency: string };
    // An answer about another transaction, player or currency is not an answer to this call.
    if (
      ok.data.playerId !== sent.playerId ||
      ok.data.currency !== sent.currency ||
      ok.data.txId !== sent.txId
    )
      return { outcome: 'UNKNOWN', reason: 'answer is about another transaction' };
    return { outcome: 'OK', answer: ok.data };
  }
}
