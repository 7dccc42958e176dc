/**
 * A handler's bundle holds its own endpoint's contract and route, not the others' (docs/architecture.md,
 * "Per-endpoint contracts"): bundled exactly as deployed (infra/src/esbuild-options.ts), the bytes a
 * cold start parses carry no other endpoint's description or path, nothing of the `ENDPOINTS` registry or
 * of the problem registry's descriptions (only the OpenAPI document needs them), and no schema module
 * the endpoint does not reach. Two handlers: the smallest read and the bet path.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EndpointContract } from '@pyb/contracts';
import { ENDPOINTS } from '@pyb/contracts/endpoints';
import { ROUTES } from '@pyb/functions/routes';
import {
  bundleHandlerWithMetafile,
  handlerEntry,
  inputBytes,
  type Metafile,
  REPO_ROOT,
} from '@pyb/infra/esbuild-options';
import { afterAll, describe, expect, it } from 'vitest';

const out = mkdtempSync(join(tmpdir(), 'pyb-bundle-contracts-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const contracts = ENDPOINTS as Record<string, EndpointContract>;

/** The JavaScript an import of the bundle parses (all its files: the lazily loaded chunks included). */
async function bundle(handler: string): Promise<{ text: string; inputs: Map<string, number> }> {
  const metafile: Metafile = await bundleHandlerWithMetafile(handlerEntry(handler), join(out, handler));
  const text = Object.keys(metafile.outputs)
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => readFileSync(join(REPO_ROOT, file), 'utf8'))
    .join('');
  return { text, inputs: inputBytes(metafile) };
}

/**
 * The longest run of plain characters of a contract's description: what survives minification as it
 * is (esbuild escapes non-ASCII and picks the quotes), long enough to name one endpoint.
 */
const needle = (description: string): string =>
  (description.match(/[A-Za-z0-9 ,.:;()/=_-]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');

/** A route's path as a string literal in the bundle. */
const quoted = (path: string) => new RegExp(`["'\`]${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'\`]`);

describe.each([
  // The smallest read: its schemas are two (WalletParams, Wallet).
  { handler: 'get-wallet', foreign: ['tables.ts', 'rounds.ts', 'shoes.ts', 'replay.ts', 'problems.ts'] },
  // The bet path: the round schemas are its own, the table configuration and the replay are not.
  { handler: 'place-bet', foreign: ['tables.ts', 'shoes.ts', 'replay.ts', 'reports.ts', 'problems.ts'] },
])('the $handler bundle', ({ handler, foreign }) => {
  const built = bundle(handler);

  it('holds its own contract and route, and no other endpoint’s description or path', async () => {
    const { text } = await built;
    const needles = Object.entries(contracts).map(([name, c]) => [name, needle(c.description)] as const);
    // Each needle names one endpoint (else the check below would say nothing).
    for (const [, n] of needles) expect(n.length).toBeGreaterThan(40);
    expect(new Set(needles.map(([, n]) => n)).size).toBe(needles.length);
    const described = needles.filter(([, n]) => text.includes(n)).map(([name]) => name);
    expect(described).toEqual([handler]);
    const paths = ROUTES.filter((r) => quoted(r.path).test(text)).map((r) => r.handler);
    expect(paths).toEqual([handler]);
  });

  it('parses nothing of the ENDPOINTS registry, of the problem descriptions or of schema modules it does not reach', async () => {
    const { inputs } = await built;
    const used = (file: string) => inputs.get(`packages/contracts/src/${file}`) ?? 0;
    expect(used('endpoints.ts')).toBe(0);
    expect(foreign.filter((file) => used(file) > 0)).toEqual([]);
    // Of routes.ts, one route: not the table of every function's grants (6 KiB).
    expect(inputs.get('functions/src/routes.ts') ?? 0).toBeLessThan(400);
  });
});
