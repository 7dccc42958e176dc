/**
 * The tests run on the runtime the Lambdas run: Node 22 (scripts/node22 brings it when the machine's
 * node is another version). Run through ./scripts/test, this proves `node --version` inside it is v22.
 */
import { readFileSync } from 'node:fs';
import { NODE_TARGET } from '@pyb/infra/esbuild-options';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const pinned = readFileSync(new URL('.node-version', root), 'utf8').trim();
const major = (version: string) => version.replace(/^v/, '').split('.')[0];

describe('Node runtime', () => {
  it('runs the tests on Node 22, the major pinned in .node-version (use ./scripts/test)', () => {
    expect(major(process.version)).toBe('22');
    expect(major(pinned)).toBe('22');
  });

  it('targets the same major everywhere: bundles (esbuild), engines, @types/node', () => {
    expect(NODE_TARGET).toBe(`node${major(pinned)}`);
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
    expect(pkg.engines.node).toBe(`${major(pinned)}.x`);
    expect(major(pkg.devDependencies['@types/node'])).toBe(major(pinned));
  });
});
