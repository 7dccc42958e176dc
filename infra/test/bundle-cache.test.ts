import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BUNDLE_FILE, bundleHandlerSync } from '../src/esbuild-options';

// PYB_BUNDLE_CACHE (scripts/ci-synth): a bundle is copied from the cache only while every file esbuild
// read for it is unchanged. A tiny entry of two files, so this runs in well under a second.

const root = mkdtempSync(join(tmpdir(), 'pyb-bundle-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.PYB_BUNDLE_CACHE;
});

let n = 0;
const bundle = (entry: string): string => {
  n += 1;
  const out = join(root, `out-${n}`);
  bundleHandlerSync(entry, out);
  return readFileSync(join(out, BUNDLE_FILE), 'utf8');
};

describe('the bundle cache', () => {
  const src = join(root, 'src');
  const entry = join(src, 'handler.ts');
  const dependency = join(src, 'banner.ts');

  it('copies an unchanged bundle, rebuilds one whose input changed, and is off unless asked for', () => {
    rmSync(src, { recursive: true, force: true });
    mkdirSync(src, { recursive: true });
    writeFileSync(dependency, "export const banner = 'first';\n");
    writeFileSync(entry, "import { banner } from './banner';\nexport const handler = () => banner;\n");
    process.env.PYB_BUNDLE_CACHE = join(root, 'cache');

    expect(bundle(entry)).toContain('first');
    // Unchanged: from the cache (a mark put in the cached copy comes out).
    const [slot] = readdirSync(join(root, 'cache'));
    appendFileSync(join(root, 'cache', slot!, 'out', BUNDLE_FILE), '//from-the-cache\n');
    expect(bundle(entry)).toContain('//from-the-cache');
    // A file the entry imports changed: rebuilt, the cache would have served the old one.
    writeFileSync(dependency, "export const banner = 'second';\n");
    const rebuilt = bundle(entry);
    expect(rebuilt).toContain('second');
    expect(rebuilt).not.toContain('//from-the-cache');

    delete process.env.PYB_BUNDLE_CACHE;
    writeFileSync(dependency, "export const banner = 'third';\n");
    expect(bundle(entry)).toContain('third');
  });
});
