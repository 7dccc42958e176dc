/**
 * The served OpenAPI document as a client's tooling sees it: Spectral (`spectral:oas`) finds nothing
 * to warn about, and a client generated from it (openapi-typescript + openapi-fetch) type-checks a
 * whole shoe under strict TypeScript — then plays it against the API.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startStack } from '../e2e/support/stack';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'test/node_modules/.bin');
const CLIENT = join(import.meta.dirname, 'client');

let stack: E2eStack;
let dir: string;
let docFile: string;

beforeAll(async () => {
  stack = await startStack();
  dir = mkdtempSync(join(tmpdir(), 'pyb-openapi-'));
  docFile = join(dir, 'openapi.json');
  writeFileSync(docFile, await (await fetch(`${stack.url}/v1/openapi.json`)).text());
});
afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the served OpenAPI document', () => {
  it('passes Spectral (spectral:oas) with no error and no warning', async () => {
    const out = await run(
      join(BIN, 'spectral'),
      ['lint', docFile, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'],
      { cwd: ROOT },
    ).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    const results = JSON.parse(out.stdout || '[]') as { severity: number; code: string; message: string }[];
    // Severity 0 = error, 1 = warning.
    expect(results.filter((r) => r.severity <= 1)).toEqual([]);
  }, 300_000);

  it('generates a client that type-checks a whole shoe under strict TypeScript, and plays it', async () => {
    mkdirSync(join(CLIENT, '.generated'), { recursive: true });
    await run(join(BIN, 'openapi-typescript'), [docFile, '-o', join(CLIENT, '.generated/schema.d.ts')], {
      cwd: ROOT,
    });
    const tsc = await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(CLIENT, 'tsconfig.json')], {
      cwd: ROOT,
    }).catch((e: { stdout: string }) => ({ stdout: e.stdout, failed: true }));
    expect(tsc.stdout).toBe('');
    // Imported by path, not by a literal specifier: the root type check must not follow it into
    // `.generated/`, which exists only once this test has written it (it is not tracked).
    const { wholeShoe } = (await import(join(CLIENT, 'whole-shoe.ts'))) as {
      wholeShoe: (url: string, keys: { admin: string; operator: string }) => Promise<number>;
    };
    const settled = await wholeShoe(stack.url, stack.a);
    expect(settled).toBeGreaterThanOrEqual(3);
  }, 300_000);
});
