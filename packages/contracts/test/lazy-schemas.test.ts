/**
 * Schemas are built on first use (packages/engine/src/lazily.ts): loading the contracts, the table
 * configuration and the proof formats builds none, and building one endpoint's contract builds what
 * that endpoint reaches, not the others' (what keeps a Lambda bundle's import near the bare DynamoDB
 * client's, docs/benchmarks.md). A schema declared the eager way (`const X = z.object(…)` at the top
 * of a module) fails the first test; a `lazily(…)` call without its `@__PURE__` mark (which lets
 * esbuild drop a schema a bundle does not use) fails the last.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ENDPOINTS } from '@pyb/contracts/endpoints';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

/** The TypeScript sources a bundle can take code from: every package's src/, the functions, the web app. */
function sources(): string[] {
  const roots = [
    ...readdirSync(join(ROOT, 'packages')).map((p) => join('packages', p, 'src')),
    'functions',
    'web/src',
  ];
  return roots.flatMap((root) =>
    readdirSync(join(ROOT, root), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.parentPath.includes('node_modules'))
      .map((e) => join(e.parentPath, e.name)),
  );
}

describe('schemas built on first use', () => {
  it("loading @pyb/contracts, @pyb/engine and @pyb/fairness builds no schema; an endpoint's first use builds its own", async () => {
    // A fresh process: this tier shares one module graph between files (vitest.config.ts).
    const { stdout } = await run(TSX, [join(import.meta.dirname, 'load-probe.ts')], {
      cwd: import.meta.dirname,
    });
    const probe = JSON.parse(stdout) as {
      afterLoad: string[];
      eagerExports: string[];
      afterGetWallet: string[];
    };
    expect(probe.afterLoad).toEqual([]);
    expect(probe.eagerExports).toEqual([]);
    expect(probe.afterGetWallet).toContain('Wallet');
    expect(probe.afterGetWallet).not.toContain('Round');
    expect(probe.afterGetWallet).not.toContain('ShoeProof');
  });

  it('a builder returns the same schema every time (its meta id is its OpenAPI component)', () => {
    const { response } = ENDPOINTS['get-round'];
    expect(response()).toBe(response());
    expect(response().meta()?.id).toBe('Round');
  });

  it('every lazily(…) call carries /* @__PURE__ */, so a bundle that does not use the value drops it', () => {
    // esbuild applies lazily's own @__NO_SIDE_EFFECTS__ only to calls in lazily.ts (evanw/esbuild#4369).
    const unmarked = sources().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${file.slice(ROOT.length + 1)}:${i + 1}` }))
        .filter(({ line }) => !/^\s*(\*|\/\/)/.test(line) && /(?<!\/\* @__PURE__ \*\/ )\blazily\(/.test(line))
        .map(({ at }) => at),
    );
    expect(unmarked).toEqual([]);
  });
});
