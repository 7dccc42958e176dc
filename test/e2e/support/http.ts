/** A tiny HTTP client for the e2e tests: real requests, the parsed answer, nothing hidden. */

// biome-ignore lint/suspicious/noExplicitAny: response bodies are JSON the assertions inspect field by field
export type Json = any;

export interface Answer<T = Json> {
  status: number;
  headers: Headers;
  contentType: string;
  body: T;
}

export interface Call {
  key?: string;
  /** Sent as the Idempotency-Key (POSTs get a fresh one when omitted; `null` sends none). */
  idem?: string | null;
  body?: unknown;
  /** Sent as is (malformed JSON, oversized bodies). */
  raw?: string;
  headers?: Record<string, string>;
}

let counter = 0;
export const freshKey = (label = 'k'): string => `${label}-${Date.now().toString(36)}-${++counter}`;

export function client(baseUrl: string) {
  async function call<T = Json>(
    method: 'GET' | 'POST',
    path: string,
    options: Call = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    if (method === 'POST' && options.idem !== null) headers['idempotency-key'] = options.idem ?? freshKey();
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      headers: response.headers,
      contentType,
      body: (text && contentType.includes('json') ? JSON.parse(text) : text) as T,
    };
  }
  return {
    get: <T = Json>(path: string, options?: Call) => call<T>('GET', path, options),
    post: <T = Json>(path: string, options?: Call) => call<T>('POST', path, options),
  };
}

export type Client = ReturnType<typeof client>;
