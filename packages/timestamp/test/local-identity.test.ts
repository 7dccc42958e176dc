import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localTimeStampAuthorityIn } from '../src/local-identity';
import { verifyTimeStampToken } from '../src/verify';
import { digestOf, fixedClock } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'pyb-tsa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('localTimeStampAuthorityIn', () => {
  it('keeps its key and certificate across restarts: a token made before still verifies under the same pin', async () => {
    const imprint = digestOf(0x61);
    const first = await localTimeStampAuthorityIn(join(dir, 'tsa'), { clock: fixedClock() });
    const before = await first.stamp(imprint);
    const pin = readFileSync(join(dir, 'tsa', 'tsa.pem'), 'utf8');
    expect(statSync(join(dir, 'tsa', 'tsa-key.pem')).mode & 0o777).toBe(0o600);

    const again = await localTimeStampAuthorityIn(join(dir, 'tsa'), { clock: fixedClock() });
    expect(again.certificatePem()).toBe(pin);
    const after = await again.stamp(imprint);
    for (const token of [before, after]) {
      await expect(verifyTimeStampToken(token, { imprint, trusted: [pin] })).resolves.toMatchObject({
        tsa: { subject: 'CN=pyb local TSA' },
      });
    }
  });
});
