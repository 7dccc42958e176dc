/**
 * The HTTP client of the pages: same-origin `/v1` (the local server and CloudFront both put the API
 * beside the pages), the API key as a Bearer token, a fresh Idempotency-Key per action (kept for the
 * one automatic retry after a network failure, so a retry can never bet or pay twice), and every
 * refusal turned into an ApiError carrying the problem+json `code`.
 */
import type { Problem } from './types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The problem's stable code; `NETWORK` when no answer came, `HTTP_<status>` for a non-problem answer. */
    readonly code: string,
    message: string,
    readonly problem?: Problem,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** POSTs: defaults to a new UUID. */
  idempotencyKey?: string;
  query?: Record<string, string | number | undefined>;
}

const isProblem = (value: unknown): value is Problem =>
  typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string';

async function send(method: 'GET' | 'POST', url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, method });
  } catch {
    // One retry: a GET is safe, a POST carries the same Idempotency-Key and replays the first answer.
    try {
      return await fetch(url, { ...init, method });
    } catch (error) {
      throw new ApiError(0, 'NETWORK', `no answer from the API (${(error as Error).message})`);
    }
  }
}

export async function call<T>(method: 'GET' | 'POST', path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? crypto.randomUUID();
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const query = Object.entries(options.query ?? {}).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined,
  );
  const search = query.length > 0 ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)]))}` : '';
  const response = await send(method, `${path}${search}`, { headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    if (isProblem(parsed)) throw new ApiError(response.status, parsed.code, parsed.detail, parsed);
    throw new ApiError(response.status, `HTTP_${response.status}`, `the API answered ${response.status}`);
  }
  return parsed as T;
}

export const get = <T>(path: string, options?: CallOptions) => call<T>('GET', path, options);
export const post = <T>(path: string, options?: CallOptions) => call<T>('POST', path, options);

/** A path segment (ids come from people: never let one change the path). */
export const seg = (value: string): string => encodeURIComponent(value);
