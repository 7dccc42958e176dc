/**
 * The time-stamp authorities of a deployed stage (docs/deploy.md, "Time-stamp authorities"): every
 * pyb-shoe/3 head naming a beacon round is anchored by them before that round is out, so the
 * functions that sign such heads — and the one that publishes the TSAs' pins — get TSA_URLS and
 * TSA_CERTS, with each TSA's certificate bundled next to their code (functions/src/time-stamps.ts
 * reads it there). A certificate is a file, not an environment value: two PEMs alone would take most
 * of Lambda's 4 KB of environment.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The handlers that import functions/src/time-stamps.ts (infra/test/time-stamps.test.ts keeps it so):
 * those that anchor heads, every other one that signs (a rotation's certificate is time-stamped by the
 * first function to sign with the new key), and the one that publishes the pins.
 */
export const TIME_STAMP_USERS = [
  'open-round',
  'close-betting',
  'set-table-availability',
  'resolve-round',
  'void-round',
  'cadence-step',
  'open-shoe',
  'contribute-seed',
  'close-shoe',
  'settle-batch',
  'cadence-open-shoe',
  'round-deadline',
  'get-signing-key',
] as const;

/** One TSA: its RFC 3161 endpoint and the PEM file of its certificate (or its CA's), as the TSA hands it out. */
export interface TimeStampAuthority {
  url: string;
  certificate: string;
}

/** Where the bundled certificates are in the function's package, and so on its file system. */
const TASK_ROOT = '/var/task';
export const certificatePath = (i: number): string => `tsa/${i}.pem`;

/**
 * The `timeStampAuthorities` context: a JSON list of `{ url, certificate }` (cdk.json), or on the CLI
 * `-c timeStampAuthorities=URL=FILE.pem,URL=FILE.pem` (each pair split at its last `=`). Files are
 * read from where the CDK runs; each must hold a PEM certificate. Absent: none (the synth warns).
 */
export function parseTimeStampAuthorities(raw: unknown, cwd = process.cwd()): TimeStampAuthority[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const entries: { url: string; certificate: string }[] = Array.isArray(raw)
    ? raw.map((e) => ({ url: String(e?.url ?? ''), certificate: String(e?.certificate ?? '') }))
    : String(raw)
        .split(',')
        .map((pair) => pair.trim())
        .filter(Boolean)
        .map((pair) => {
          const at = pair.lastIndexOf('=');
          if (at <= 0) throw new Error(`context 'timeStampAuthorities': '${pair}' is not URL=FILE.pem`);
          return { url: pair.slice(0, at), certificate: pair.slice(at + 1) };
        });
  return entries.map(({ url, certificate }) => {
    if (!/^https?:\/\/[^\s/,]+\S*$/.test(url))
      throw new Error(`context 'timeStampAuthorities': '${url}' is not an http(s) URL of an RFC 3161 TSA`);
    const file = resolve(cwd, certificate);
    if (!existsSync(file))
      throw new Error(`context 'timeStampAuthorities': ${url}'s certificate ${certificate} does not exist`);
    if (!readFileSync(file, 'utf8').includes('-----BEGIN CERTIFICATE-----'))
      throw new Error(
        `context 'timeStampAuthorities': ${certificate} holds no PEM certificate (download the TSA's certificate or its CA's, in PEM)`,
      );
    return { url, certificate: file };
  });
}

/** What a time-stamping function gets: the files bundled with its code and its environment. */
export function timeStampBundle(authorities: readonly TimeStampAuthority[]): {
  files: Record<string, string>;
  environment: Record<string, string>;
} {
  return {
    files: Object.fromEntries(authorities.map((a, i) => [certificatePath(i), a.certificate])),
    environment: {
      TSA_URLS: authorities.map((a) => a.url).join(','),
      TSA_CERTS: authorities.map((_, i) => `${TASK_ROOT}/${certificatePath(i)}`).join(','),
    },
  };
}
