import { describe, expect, it } from 'vitest';
import type { TimeStampAuthority } from '../src/authority';
import { TimeStampError } from '../src/errors';
import { HttpTimeStampAuthority } from '../src/http-client';
import { merkleRoot, verifyInclusion } from '../src/merkle';
import { startTimeStampServer } from '../src/server';
import {
  type Anchor,
  MerkleStamper,
  type PinnedAuthority,
  type Scheduler,
  stampWithAny,
} from '../src/stamper';
import { verifyTimeStampToken } from '../src/verify';
import { AT, digestOf, failure, localTsa } from './helpers';

/** Time moves only when the test says so: the window's flush runs on `fire()`. */
function manualScheduler() {
  const timers: { delayMs: number; run: () => void; cancelled: boolean }[] = [];
  const scheduler: Scheduler = {
    schedule(delayMs, run) {
      const timer = { delayMs, run, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
  };
  const live = () => timers.filter((t) => !t.cancelled);
  return {
    scheduler,
    timers,
    live,
    fire: () => {
      for (const t of live()) t.run();
    },
  };
}

const down = (name: string): TimeStampAuthority => ({
  name,
  stamp: () => Promise.reject(new TimeStampError('TSA_UNREACHABLE', `${name}: connection refused`)),
});

async function twoTsas(): Promise<[PinnedAuthority, PinnedAuthority]> {
  const [a, b] = [await localTsa('TSA A'), await localTsa('TSA B')];
  return [
    { authority: a, trusted: [a.certificatePem()] },
    { authority: b, trusted: [b.certificatePem()] },
  ];
}

describe('MerkleStamper', () => {
  it('stamps one root for the window and gives each digest its inclusion proof and both tokens', async () => {
    const authorities = await twoTsas();
    const clock = manualScheduler();
    const stamper = new MerkleStamper({ authorities, scheduler: clock.scheduler, windowMs: 1000 });
    const digests = [1, 2, 3].map(digestOf);
    const anchored = digests.map((d) => stamper.add(d));
    expect(stamper.pending).toBe(3);
    expect(clock.timers.map((t) => t.delayMs)).toEqual([1000]); // one timer per window, not per digest
    clock.fire();
    const anchors = await Promise.all(anchored);
    const root = merkleRoot(digests);
    anchors.forEach((anchor: Anchor, i) => {
      expect(anchor.root).toEqual(root);
      expect(anchor.digest).toEqual(digests[i]);
      expect(verifyInclusion(anchor.digest, anchor.proof, anchor.root)).toBe(true);
      expect(anchor.tokens.map((t) => t.authority)).toEqual(['TSA A', 'TSA B']);
      expect(anchor.failures).toEqual([]);
    });
    // Each token verifies on its own, offline, against its TSA's pinned certificate.
    for (const [k, token] of anchors[0]!.tokens.entries()) {
      const verified = await verifyTimeStampToken(token.token, {
        imprint: root,
        trusted: authorities[k]!.trusted,
      });
      expect(verified.genTime).toBe(AT.toISOString());
    }
    expect(stamper.pending).toBe(0);
    // The next digest opens a new window.
    const later = stamper.add(digestOf(4));
    expect(clock.live()).toHaveLength(1);
    clock.fire();
    expect((await later).root).toEqual(merkleRoot([digestOf(4)]));
  });

  it('goes on with one TSA when the other is down (a real HTTP endpoint on a closed port), listing the failure', async () => {
    const [a] = await twoTsas();
    const gone = await startTimeStampServer(a.authority as never);
    await gone.close();
    const clock = manualScheduler();
    const stamper = new MerkleStamper({
      authorities: [
        { authority: new HttpTimeStampAuthority(gone.url, { name: 'TSA down' }), trusted: [] },
        a,
      ],
      scheduler: clock.scheduler,
      windowMs: 500,
    });
    const anchored = stamper.add(digestOf(9));
    clock.fire();
    const anchor = await anchored;
    expect(anchor.tokens.map((t) => t.authority)).toEqual(['TSA A']);
    expect(anchor.failures).toEqual([
      expect.objectContaining({ authority: 'TSA down', code: 'TSA_UNREACHABLE' }),
    ]);
  });

  it('counts a token that does not verify against its pins as a failure', async () => {
    const [a, b] = await twoTsas();
    const anchor = await stampWithAny(digestOf(7), [{ authority: a.authority, trusted: b.trusted }, b]);
    expect(anchor.tokens.map((t) => t.authority)).toEqual(['TSA B']);
    expect(anchor.failures).toEqual([expect.objectContaining({ authority: 'TSA A', code: 'UNTRUSTED_TSA' })]);
  });

  it('rejects with TSA_UNAVAILABLE when both TSAs are down (two real HTTP endpoints on closed ports)', async () => {
    const [a] = await twoTsas();
    const urls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const server = await startTimeStampServer(a.authority as never);
      await server.close();
      urls.push(server.url);
    }
    const clock = manualScheduler();
    const stamper = new MerkleStamper({
      authorities: urls.map((url, i) => ({
        authority: new HttpTimeStampAuthority(url, { name: `TSA ${i + 1}` }),
        trusted: a.trusted,
      })),
      scheduler: clock.scheduler,
      windowMs: 500,
    });
    const anchored = stamper.add(digestOf(5));
    clock.fire();
    await expect(anchored).rejects.toMatchObject({
      code: 'TSA_UNAVAILABLE',
      failures: [
        { authority: 'TSA 1', code: 'TSA_UNREACHABLE' },
        { authority: 'TSA 2', code: 'TSA_UNREACHABLE' },
      ],
    });
  });

  it('rejects every digest of the window with TSA_UNAVAILABLE, listing each failure, when no TSA anchors it', async () => {
    const [a] = await twoTsas();
    const clock = manualScheduler();
    const stamper = new MerkleStamper({
      authorities: [
        { authority: down('TSA 1'), trusted: [] },
        { authority: a.authority, trusted: [] }, // answers, but nothing pinned trusts it
      ],
      scheduler: clock.scheduler,
      windowMs: 500,
    });
    const anchored = [stamper.add(digestOf(1)), stamper.add(digestOf(2))];
    clock.fire();
    for (const result of anchored) {
      const error = await result.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeStampError);
      expect(error).toMatchObject({
        code: 'TSA_UNAVAILABLE',
        failures: [
          {
            authority: 'TSA 1',
            code: 'TSA_UNREACHABLE',
            message: expect.stringContaining('connection refused'),
          },
          { authority: 'TSA A', code: 'UNTRUSTED_TSA', message: expect.any(String) },
        ],
      });
    }
    expect((await failure(stampWithAny(digestOf(3), [{ authority: down('TSA 2'), trusted: [] }]))).code).toBe(
      'TSA_UNAVAILABLE',
    );
  });

  it('flushes a full window at once and cancels its timer; an empty flush does nothing', async () => {
    const authorities = await twoTsas();
    const clock = manualScheduler();
    const stamper = new MerkleStamper({
      authorities,
      scheduler: clock.scheduler,
      windowMs: 1000,
      maxLeaves: 2,
    });
    await stamper.flush();
    const first = stamper.add(digestOf(1));
    const second = stamper.add(digestOf(2));
    expect(clock.live()).toHaveLength(0);
    const [x, y] = await Promise.all([first, second]);
    expect(x.root).toEqual(y.root);
    expect(x.proof).toMatchObject({ index: 0, size: 2 });
    expect(y.proof).toMatchObject({ index: 1, size: 2 });
  });

  it('refuses a digest that is not 32 bytes and a stamper without a TSA', async () => {
    const stamper = new MerkleStamper({
      authorities: await twoTsas(),
      scheduler: manualScheduler().scheduler,
      windowMs: 1,
    });
    expect(() => stamper.add(new Uint8Array(20))).toThrow('32 bytes');
    expect(
      () => new MerkleStamper({ authorities: [], scheduler: manualScheduler().scheduler, windowMs: 1 }),
    ).toThrow('no time-stamp authority');
  });
});
