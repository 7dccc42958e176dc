import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The fairness library must run unchanged in a browser (a verifier page): no Node I/O, no Buffer. */
describe('packages/fairness/src', () => {
  const dir = new URL('../src/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it.each(files)('%s imports nothing from Node or AWS and uses no Node globals', (file) => {
    const source = readFileSync(new URL(file, dir), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    for (const spec of imports) {
      // @pyb/timestamp's index only (webcrypto + pkijs: its own purity test keeps node: out of it).
      expect(spec).toMatch(/^(\.\/|@noble\/(hashes|curves)\/|@pyb\/(engine|timestamp)$|canonicalize$|zod$)/);
    }
    expect(source).not.toMatch(/\b(Buffer|process)\./);
  });
});
