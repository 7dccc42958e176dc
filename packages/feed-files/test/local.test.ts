import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFeedFiles } from '../src/index';

const dir = mkdtempSync(join(tmpdir(), 'pyb-feed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const utf8 = new TextEncoder();

async function* chunks(...texts: string[]): AsyncGenerator<Uint8Array> {
  for (const t of texts) yield utf8.encode(t);
}

describe('LocalFeedFiles', () => {
  it('writes chunks as they come, lists a day, reads a file back with its content type, replaces on rewrite', async () => {
    const files = new LocalFeedFiles(dir);
    const written = await files.write(
      'feed/acme/2026-12-01/feed.csv',
      'text/csv',
      chunks('a,b\r\n', '1,2\r\n'),
    );
    expect(written).toMatchObject({ key: 'feed/acme/2026-12-01/feed.csv', bytes: 10 });
    expect(written.sha256).toMatch(/^[0-9a-f]{64}$/);
    await files.write('feed/acme/2026-12-01/feed.ndjson', 'application/x-ndjson', chunks('{}\n'));
    await files.write('feed/acme/2026-12-02/feed.ndjson', 'application/x-ndjson', chunks('{}\n'));
    const listed = await files.list('feed/acme/2026-12-01/');
    expect(listed.map((f) => [f.key, f.bytes])).toEqual([
      ['feed/acme/2026-12-01/feed.csv', 10],
      ['feed/acme/2026-12-01/feed.ndjson', 3],
    ]);
    expect(await files.list('feed/nobody/2026-12-01/')).toEqual([]);
    const read = await files.read('feed/acme/2026-12-01/feed.csv', 100);
    expect([read?.contentType, new TextDecoder().decode(read?.body)]).toEqual(['text/csv', 'a,b\r\n1,2\r\n']);
    expect(await files.read('feed/acme/2026-12-01/feed.csv', 9)).toEqual({
      contentType: 'text/csv',
      bytes: 10,
    });
    expect(await files.read('feed/acme/2026-12-03/feed.csv', 100)).toBeUndefined();
    await files.write('feed/acme/2026-12-01/feed.csv', 'text/csv', chunks('x\r\n'));
    expect((await files.read('feed/acme/2026-12-01/feed.csv', 100))?.bytes).toBe(3);
  });

  it('leaves nothing at the key when the records fail midway, and keeps keys inside its folder', async () => {
    const files = new LocalFeedFiles(dir);
    async function* failing() {
      yield utf8.encode('half');
      throw new Error('store read failed');
    }
    await expect(files.write('feed/acme/2026-12-09/feed.csv', 'text/csv', failing())).rejects.toThrow(
      'store read failed',
    );
    expect(await files.read('feed/acme/2026-12-09/feed.csv', 100)).toBeUndefined();
    expect(readdirSync(join(dir, 'feed/acme/2026-12-09'))).toEqual([]);
    await expect(files.write('../escape', 'text/csv', failing())).rejects.toThrow(RangeError);
  });
});
