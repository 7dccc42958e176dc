/**
 * The TSAs a deployment uses, from its environment (docs/time-stamps.md, "Configuring a TSA"):
 *
 *   TSA_URLS        comma-separated RFC 3161 endpoints, tried all at once (two make one outage harmless)
 *   TSA_CERTS       comma-separated PEM files, one per URL in the same order: the TSA's certificate or
 *                   its CA's, as obtained from the TSA (the pin; nothing in a token is trusted by itself)
 *   TSA_TIMEOUT_MS  per request, default 5000
 *   TSA_WINDOW_MS   how long head digests are collected under one Merkle root, default 1000
 *
 * Reads files: Node only, like server.ts (not exported from the index).
 */
import { readFileSync } from 'node:fs';
import { pemOrDer } from './der';
import { HttpTimeStampAuthority, type TsaFetch } from './http-client';
import type { PinnedAuthority } from './stamper';

export interface TimeStampConfig {
  readonly authorities: readonly PinnedAuthority[];
  readonly windowMs: number;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function positive(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) === 0)
    throw new Error(`${name} must be a positive integer of ms (got "${raw}")`);
  return Number(raw);
}

export function timeStampConfigFromEnv(
  env: Record<string, string | undefined>,
  options: { fetch?: TsaFetch; readFile?: (path: string) => string } = {},
): TimeStampConfig {
  const urls = list(env.TSA_URLS);
  const certs = list(env.TSA_CERTS);
  if (urls.length === 0)
    throw new Error('TSA_URLS is empty: name at least one RFC 3161 endpoint (two are advised)');
  if (certs.length !== urls.length) {
    throw new Error(
      `TSA_CERTS names ${certs.length} PEM files for ${urls.length} TSA_URLS: one per URL, in order`,
    );
  }
  for (const url of urls) {
    if (!/^https?:\/\/[^\s/]+/.test(url)) throw new Error(`TSA_URLS: "${url}" is not an http(s) URL`);
  }
  const read = options.readFile ?? ((path: string) => readFileSync(path, 'utf8'));
  const timeoutMs = positive(env, 'TSA_TIMEOUT_MS', 5000);
  const authorities = urls.map((url, i) => {
    const pem = read(certs[i]!);
    pemOrDer(pem); // a file with no certificate is refused at start, not at the first coup
    return {
      authority: new HttpTimeStampAuthority(url, {
        timeoutMs,
        ...(options.fetch && { fetch: options.fetch }),
      }),
      trusted: [pem],
    };
  });
  return { authorities, windowMs: positive(env, 'TSA_WINDOW_MS', 1000) };
}
