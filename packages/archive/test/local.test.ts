import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalAuditArchive } from '../src/index';

const dir = mkdtempSync(join(tmpdir(), 'pyb-archive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const object = (text: string) => ({
  key: 'shoes/acme/shoe-1.json',
  body: new TextEncoder().encode(text),
  contentType: 'application/json',
  retainUntil: new Date('2036-12-01T00:00:00.000Z'),
  metadata: { 'shoe-id': 'shoe-1' },
});

describe('LocalAuditArchive (the S3 contract in a folder)', () => {
  it('creates once, read-only; the same bytes again are EXISTS; other bytes are ARCHIVE_MISMATCH', async () => {
    const archive = new LocalAuditArchive(dir);
    const first = await archive.putOnce(object('{"a":1}'));
    expect(first.status).toBe('CREATED');
    const path = archive.path('shoes/acme/shoe-1.json');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}');
    expect(statSync(path).mode & 0o222).toBe(0);
    expect(JSON.parse(readFileSync(`${path}.meta.json`, 'utf8'))).toMatchObject({
      sha256: first.sha256,
      retainUntil: '2036-12-01T00:00:00.000Z',
    });
    expect(await archive.putOnce(object('{"a":1}'))).toEqual({ status: 'EXISTS', sha256: first.sha256 });
    await expect(archive.putOnce(object('{"a":2}'))).rejects.toMatchObject({ code: 'ARCHIVE_MISMATCH' });
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}');
  });

  it('stored: the SHA-256 of what a key holds, undefined when nothing is there', async () => {
    const archive = new LocalAuditArchive(dir);
    const put = await archive.putOnce({ ...object('{"b":1}'), key: 'shoes/acme/shoe-2.json' });
    expect(await archive.stored('shoes/acme/shoe-2.json')).toEqual({ sha256: put.sha256 });
    expect(await archive.stored('shoes/acme/shoe-3.json')).toBeUndefined();
  });

  it('keeps keys inside its folder', () => {
    expect(() => new LocalAuditArchive(dir).path('../escape.json')).toThrow(/outside/);
  });
});
