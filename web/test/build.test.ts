/** The site's build (web/build.ts), as ./scripts/dev runs it in the process that then serves the API. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../build';
import { PAGES } from '../site';

const out = mkdtempSync(join(tmpdir(), 'pyb-web-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('buildWeb', () => {
  it('builds every page and leaves NODE_ENV as it found it (the local key services refuse production)', async () => {
    const before = process.env.NODE_ENV;
    delete process.env.NODE_ENV;
    try {
      await buildWeb(out);
      expect(process.env.NODE_ENV).toBeUndefined();
    } finally {
      if (before !== undefined) process.env.NODE_ENV = before;
    }
    for (const page of PAGES) expect(readdirSync(join(out, page, '..'))).toContain('index.html');
  }, 120_000);
});
