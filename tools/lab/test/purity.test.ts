import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The standards' tests stay pure (they moved here from packages/fairness/src): they read dealt orders
 * and need nothing of Node, so the same module checks a sample wherever a lab runs it.
 */
describe('tools/lab/src', () => {
  const dir = new URL('../src/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it.each(files)('%s imports nothing from Node or AWS and uses no Node globals', (file) => {
    const source = readFileSync(new URL(file, dir), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    for (const spec of imports) expect(spec).toMatch(/^(\.\/|@pyb\/engine$)/);
    expect(source).not.toMatch(/\b(Buffer|process)\./);
  });
});
