/**
 * The drand adapter: the exact requests it sends, how it treats a round not published yet, a relay
 * that is late, down or wrong, and that what it returns verifies (against recorded quicknet answers).
 */
import { QUICKNET, roundTime, verifyBeaconRound } from '@pyb/fairness';
import { describe, expect, it } from 'vitest';
import { type Fetch, HttpBeacon } from '../src/index';

const ROUND = 1000;
const SIGNATURE =
  'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39';
const BODY = {
  round: ROUND,
  randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
  signature: SIGNATURE,
};
const AFTER = new Date((roundTime(QUICKNET, ROUND) + 1) * 1000);

/** A fetch that answers from a script per URL and records every call. */
function scripted(answers: Record<string, { status: number; body?: unknown } | 'timeout' | 'down'>) {
  const calls: { url: string; accept: string | undefined }[] = [];
  const fetch: Fetch = async (url, init) => {
    calls.push({ url, accept: init.headers.accept });
    const answer = answers[url] ?? { status: 404, body: { error: 'not found' } };
    if (answer === 'timeout')
      throw Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    if (answer === 'down') throw new TypeError('fetch failed');
    return { status: answer.status, json: async () => answer.body };
  };
  return { fetch, calls };
}

const url = (relay: string, round = ROUND) =>
  `${relay}/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/${round}`;

describe('HttpBeacon on drand quicknet', () => {
  it('asks the first relay for the round by chain hash and returns what it published', async () => {
    const { fetch, calls } = scripted({ [url('https://api.drand.sh')]: { status: 200, body: BODY } });
    const beacon = new HttpBeacon({ fetch, clock: { now: () => AFTER } });
    const answer = await beacon.round(ROUND);
    expect(answer).toEqual({ status: 'PUBLISHED', round: { round: ROUND, signature: SIGNATURE } });
    expect(calls).toEqual([{ url: url('https://api.drand.sh'), accept: 'application/json' }]);
    expect(await beacon.network()).toEqual(QUICKNET);
    if (answer.status === 'PUBLISHED') expect(await verifyBeaconRound(QUICKNET, answer.round)).toBe(true);
  });

  it('does not ask for a round whose time has not come: PENDING until then, no request', async () => {
    const { fetch, calls } = scripted({});
    const before = new Date((roundTime(QUICKNET, ROUND) - 7.5) * 1000);
    const answer = await new HttpBeacon({ fetch, clock: { now: () => before } }).round(ROUND);
    expect(answer).toMatchObject({ status: 'PENDING', retryAfterSeconds: 8 });
    expect(calls).toEqual([]);
  });

  it('a relay late with the round (404, 425), down, timing out or serving another round: the next one is asked', async () => {
    const { fetch, calls } = scripted({
      [url('https://api.drand.sh')]: { status: 425, body: {} },
      [url('https://api2.drand.sh')]: 'timeout',
      [url('https://api3.drand.sh')]: { status: 200, body: { ...BODY, round: ROUND + 1 } },
      [url('https://drand.cloudflare.com')]: { status: 200, body: BODY },
    });
    const answer = await new HttpBeacon({ fetch, clock: { now: () => AFTER } }).round(ROUND);
    expect(answer.status).toBe('PUBLISHED');
    expect(calls.map((c) => c.url)).toEqual([
      url('https://api.drand.sh'),
      url('https://api2.drand.sh'),
      url('https://api3.drand.sh'),
      url('https://drand.cloudflare.com'),
    ]);
  });

  it('no relay has it: PENDING with the reasons, retry after one period — never anything else', async () => {
    const { fetch } = scripted({
      [url('https://a.example')]: { status: 404, body: {} },
      [url('https://b.example')]: 'down',
      [url('https://c.example')]: { status: 200, body: { round: ROUND, signature: 'not hex' } },
    });
    const beacon = new HttpBeacon({
      fetch,
      clock: { now: () => AFTER },
      relays: ['https://a.example', 'https://b.example/', 'https://c.example'],
    });
    const answer = await beacon.round(ROUND);
    expect(answer).toEqual({
      status: 'PENDING',
      retryAfterSeconds: 3,
      reason: `no relay served round ${ROUND} yet (https://a.example: HTTP 404; https://b.example/: fetch failed; https://c.example: not round ${ROUND} of this chain)`,
    });
  });

  it('a relay answering a signature that does not verify is passed on as is: the core refuses it', async () => {
    const { fetch } = scripted({
      [url('https://api.drand.sh')]: {
        status: 200,
        body: { ...BODY, signature: SIGNATURE.replace('b4', 'a4') },
      },
    });
    const answer = await new HttpBeacon({ fetch, clock: { now: () => AFTER } }).round(ROUND);
    expect(answer.status).toBe('PUBLISHED');
    if (answer.status === 'PUBLISHED') expect(await verifyBeaconRound(QUICKNET, answer.round)).toBe(false);
  });
});
