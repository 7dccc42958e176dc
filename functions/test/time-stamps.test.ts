/**
 * The functions' TSAs from the environment (functions/src/time-stamps.ts): TSA_URLS / TSA_CERTS reach
 * a real RFC 3161 endpoint (the local TSA behind startTimeStampServer), and the request sent is the
 * exact one RFC 3161 wants: POST, application/timestamp-query, over the window's Merkle root.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalTimeStampAuthority, leafHash, parseTimeStampRequest, toHex } from '@pyb/timestamp';
import { startTimeStampServer } from '@pyb/timestamp/server';
import { afterAll, describe, expect, it } from 'vitest';
import { buildContext } from '../src/context';
import { timeStamperOf } from '../src/time-stamps';

const dir = mkdtempSync(join(tmpdir(), 'pyb-fn-tsa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('timeStamperOf', () => {
  it('anchors a head digest through the configured TSA, with the exact RFC 3161 request', async () => {
    const tsa = await LocalTimeStampAuthority.create({
      clock: { now: () => new Date('2026-01-01T00:00:00Z') },
    });
    const seen: { method: string; contentType: string | undefined; body: Uint8Array }[] = [];
    const server = await startTimeStampServer(tsa, { onRequest: (r) => seen.push(r) });
    try {
      const pem = join(dir, 'tsa.pem');
      writeFileSync(pem, tsa.certificatePem());
      const context = buildContext({ TSA_URLS: server.url, TSA_CERTS: pem, TSA_WINDOW_MS: '1' });
      const digest = Uint8Array.from({ length: 32 }, (_, i) => i);
      const answer = await timeStamperOf(context).anchor(digest);
      expect(answer.status).toBe('ANCHORED');
      if (answer.status !== 'ANCHORED') return;
      expect(answer.anchor).toMatchObject({
        root: toHex(leafHash(digest)),
        proof: { index: 0, size: 1, siblings: [] },
        existedBy: '2026-01-01T00:00:00.001Z', // genTime + the stated accuracy (1 ms)
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ method: 'POST', contentType: 'application/timestamp-query' });
      const request = parseTimeStampRequest(seen[0]!.body);
      expect(toHex(request.imprint)).toBe(toHex(leafHash(digest)));
      expect(request).toMatchObject({ hashName: 'SHA-256', certReq: true });
      expect(request.nonce).toBeTypeOf('bigint'); // a fresh nonce per request
    } finally {
      await server.close();
    }
  });

  it('refuses a setting without TSA_URLS at the first use, never anchoring nothing', () => {
    expect(() => timeStamperOf(buildContext({}))).toThrow(/TSA_URLS is empty/);
  });
});
