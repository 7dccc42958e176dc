/**
 * The port on a real TSA's RFC 3161 HTTP endpoint (RFC 3161 §3.4): POST the DER TimeStampReq as
 * application/timestamp-query, read the DER TimeStampResp as application/timestamp-reply. Each request
 * carries a fresh 64-bit nonce and certReq; the reply must be granted and echo the nonce and the
 * imprint, SHA-256. Verifying the signature against pinned certificates is the caller's step
 * (verifyTimeStampToken; MerkleStamper does it). fetch only: runs in a browser too.
 */
import type { TimeStampAuthority } from './authority';
import { TimeStampError } from './errors';
import { timeStampRequest } from './request';
import { checkAnswers, openToken, parseTimeStampResponse } from './response';

export const QUERY_TYPE = 'application/timestamp-query';
export const REPLY_TYPE = 'application/timestamp-reply';

export type TsaFetch = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: Uint8Array; signal: AbortSignal },
) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}>;

export interface HttpTimeStampAuthorityOptions {
  /** Injected in tests; the global fetch otherwise. */
  fetch?: TsaFetch;
  /** The whole exchange. Default 5000 ms. */
  timeoutMs?: number;
  /** Default: the URL. */
  name?: string;
  /** Nonces (random 64 bits by default); injected in tests. */
  nonce?: () => bigint;
}

export function randomNonce(): bigint {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  return value === 0n ? 1n : value;
}

export class HttpTimeStampAuthority implements TimeStampAuthority {
  readonly name: string;
  private readonly fetch: TsaFetch;
  private readonly timeoutMs: number;
  private readonly nonce: () => bigint;

  constructor(
    readonly url: string,
    options: HttpTimeStampAuthorityOptions = {},
  ) {
    this.name = options.name ?? url;
    this.fetch = options.fetch ?? (globalThis.fetch as unknown as TsaFetch);
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.nonce = options.nonce ?? randomNonce;
  }

  async stamp(imprint: Uint8Array): Promise<Uint8Array> {
    const nonce = this.nonce();
    const body = timeStampRequest(imprint, { nonce, certReq: true });
    let reply: Uint8Array;
    try {
      const response = await this.fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': QUERY_TYPE, accept: REPLY_TYPE },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
      if (type !== REPLY_TYPE) throw new Error(`content-type ${type ?? 'none'}, not ${REPLY_TYPE}`);
      reply = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no reply in ${this.timeoutMs} ms`
          : String(error);
      throw new TimeStampError('TSA_UNREACHABLE', `${this.name}: ${reason}`);
    }
    const token = parseTimeStampResponse(reply);
    checkAnswers(openToken(token).tstInfo, { imprint, nonce });
    return token;
  }
}
