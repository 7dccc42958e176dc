/**
 * A tiny HTTP client for the e2e tests: real requests, the parsed answer, nothing hidden. Every
 * exchange is held to the served OpenAPI document (contract.ts): a breach fails the call, naming the
 * route and the field.
 */
import { ContractValidator, INVALID_JSON } from './contract';

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

const validators = new Map<string, Promise<ContractValidator>>();

/** The document the server at `baseUrl` serves, read once. */
function validatorOf(baseUrl: string): Promise<ContractValidator> {
  let pending = validators.get(baseUrl);
  if (!pending) {
    pending = fetch(`${baseUrl}/v1/openapi.json`)
      .then((r) => r.json())
      .then((doc) => new ContractValidator(doc));
    validators.set(baseUrl, pending);
  }
  return pending;
}

const parsed = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return INVALID_JSON;
  }
};

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
    const answer = {
      status: response.status,
      headers: response.headers,
      contentType,
      // JSON and problem+json are parsed; other text (NDJSON, CSV) is kept as it came.
      body: (text && /^application\/([\w.-]+\+)?json\b/.test(contentType) ? JSON.parse(text) : text) as T,
    };
    const breaches = (await validatorOf(baseUrl)).check({
      method,
      url: path,
      headers,
      body: options.raw !== undefined ? parsed(options.raw) : options.body,
      status: answer.status,
      responseHeaders: answer.headers,
      contentType,
      responseBody: answer.body,
    });
    if (breaches.length > 0)
      throw new Error(`the exchange breaks the OpenAPI document:\n${breaches.join('\n')}`);
    return answer;
  }
  return {
    get: <T = Json>(path: string, options?: Call) => call<T>('GET', path, options),
    post: <T = Json>(path: string, options?: Call) => call<T>('POST', path, options),
  };
}

export type Client = ReturnType<typeof client>;
