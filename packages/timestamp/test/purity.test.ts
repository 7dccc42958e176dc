import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Everything but the local TSA's HTTP server runs in a browser (the web verifier): no Node, no Buffer. */
/** Dev and deployment helpers, never loaded by a verifier. */
const NODE_ONLY = ['server.ts', 'config.ts', 'local-identity.ts'];

describe('packages/timestamp/src', () => {
  const dir = new URL('../src/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !NODE_ONLY.includes(f));

  it.each(files)('%s imports nothing from Node and uses no Node globals', (file) => {
    const source = readFileSync(new URL(file, dir), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    for (const spec of imports) expect(spec).toMatch(/^(\.\/|asn1js$|pkijs$|@noble\/hashes\/)/);
    expect(source).not.toMatch(/\b(Buffer|process)\.|(from |import\()'node:/);
  });

  it('the index exports neither the server nor the config reader', () => {
    const index = readFileSync(new URL('index.ts', dir), 'utf8');
    for (const file of NODE_ONLY) expect(index).not.toContain(`./${file.replace('.ts', '')}'`);
  });
});
