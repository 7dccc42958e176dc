import { describe, expect, it } from 'vitest';
import { REPLAY_WINDOW_SECONDS, sign, verify } from '../src/signature';

const parts = { first: 'POST', path: '/pyb/debit', timestamp: '1764572400', body: '{"txId":"dbt_x"}' };
const now = 1764572400;

describe('seamless message signing', () => {
  it('is HMAC-SHA256 over METHOD\\nPATH\\nTIMESTAMP\\nBODY, hex, with a v1= prefix (a vector another implementation can check)', () => {
    // Computed independently: printf 'POST\n/pyb/debit\n1764572400\n{"txId":"dbt_x"}' | openssl dgst -sha256 -hmac s3cret
    expect(sign('s3cret', parts)).toBe('v1=48059f862f73ba0fa4f9a490055ca709b11f522cd3c71d83a9ed1bd39164e8b0');
  });

  it('accepts the right secret and, during a rotation, either of two', () => {
    expect(verify(['s3cret'], parts, sign('s3cret', parts), now)).toBeUndefined();
    expect(verify(['new', 's3cret'], parts, sign('s3cret', parts), now)).toBeUndefined();
    expect(verify(['new', 's3cret'], parts, sign('new', parts), now)).toBeUndefined();
    expect(verify(['new'], parts, sign('s3cret', parts), now)).toBe('BAD_SIGNATURE');
  });

  it('refuses any change of method, path, timestamp or body', () => {
    const good = sign('s3cret', parts);
    for (const changed of [
      { ...parts, first: 'GET' },
      { ...parts, first: '200' },
      { ...parts, path: '/pyb/credit' },
      { ...parts, timestamp: String(now + 1) },
      { ...parts, body: '{"txId":"dbt_y"}' },
    ])
      expect(verify(['s3cret'], changed, good, now)).toBe('BAD_SIGNATURE');
  });

  it('refuses a timestamp outside the replay window, and a missing or malformed signature', () => {
    const old = { ...parts, timestamp: String(now - REPLAY_WINDOW_SECONDS - 1) };
    expect(verify(['s3cret'], old, sign('s3cret', old), now)).toBe('STALE_TIMESTAMP');
    const edge = { ...parts, timestamp: String(now - REPLAY_WINDOW_SECONDS) };
    expect(verify(['s3cret'], edge, sign('s3cret', edge), now)).toBeUndefined();
    const future = { ...parts, timestamp: String(now + REPLAY_WINDOW_SECONDS + 1) };
    expect(verify(['s3cret'], future, sign('s3cret', future), now)).toBe('STALE_TIMESTAMP');
    expect(verify(['s3cret'], { ...parts, timestamp: 'soon' }, sign('s3cret', parts), now)).toBe(
      'STALE_TIMESTAMP',
    );
    expect(verify(['s3cret'], parts, undefined, now)).toBe('BAD_SIGNATURE');
    expect(verify(['s3cret'], parts, 'v1=zz', now)).toBe('BAD_SIGNATURE');
  });
});
