/**
 * The feed's daily job (functions/src/feed-job.ts): yesterday's files for every operator of the
 * deployment; one operator failing does not stop the others, and fails the invocation afterwards so
 * the scheduler retries it (then its DLQ).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FeedFiles } from '@pyb/core';
import { context } from '@pyb/core/use-cases';
import { LocalFeedFiles } from '@pyb/feed-files';
import { feedJobHandler, feedOperatorsFromEnv } from '@pyb/functions/feed-job';
import { LocalKeyService } from '@pyb/keys';
import { MemoryStore } from '@pyb/store-memory';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'pyb-feed-job-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const now = new Date('2026-12-01T00:30:00.000Z');
const ctx = context({
  store: new MemoryStore(),
  keys: new LocalKeyService({ dir: join(dir, 'keys'), env: {} }),
  clock: { now: () => now },
});

describe('the daily feed job', () => {
  it("writes yesterday's two files for each operator of FEED_OPERATORS", async () => {
    const files = new LocalFeedFiles(join(dir, 'ok'));
    const run = feedJobHandler(() => ({
      ctx,
      files,
      operators: feedOperatorsFromEnv({ FEED_OPERATORS: 'acme, globex' }),
    }));
    const out = await run({});
    expect(out.date).toBe('2026-11-30');
    expect(out.written.map((f) => f.key)).toEqual([
      'feed/acme/2026-11-30/feed.ndjson',
      'feed/acme/2026-11-30/feed.csv',
      'feed/globex/2026-11-30/feed.ndjson',
      'feed/globex/2026-11-30/feed.csv',
    ]);
    // A day named by the event, for the operators it names.
    expect((await run({ operators: ['acme'], date: '2026-11-01' })).written).toHaveLength(2);
    await expect(run({ operators: ['Not Valid'] })).rejects.toThrow();
  });

  it('tries every operator, then fails the invocation naming the ones that failed', async () => {
    const local = new LocalFeedFiles(join(dir, 'partial'));
    const files: FeedFiles = {
      write: (key, type, chunks) =>
        key.includes('/acme/')
          ? Promise.reject(new Error('bucket unavailable'))
          : local.write(key, type, chunks),
      list: (prefix) => local.list(prefix),
      read: (key, max) => local.read(key, max),
    };
    const run = feedJobHandler(() => ({ ctx, files, operators: ['acme', 'globex'] }));
    await expect(run({})).rejects.toThrow('feed of 2026-11-30 failed for acme');
    expect((await local.list('feed/globex/2026-11-30/')).map((f) => f.key)).toHaveLength(2);
  });
});
