import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roundTime, verifyBeaconRound } from '@pyb/fairness';
import { afterAll, describe, expect, it } from 'vitest';
import { createBeacon, HttpBeacon, LOCAL_BEACON_FAIL_FILE, LocalBeacon } from '../src/index';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyb-beacon-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('LocalBeacon', () => {
  it('signs a round once its time has come, verifiable with the network it names; not before', async () => {
    let now = new Date('2025-06-01T12:00:00Z');
    const beacon = new LocalBeacon({ dir: fresh(), clock: { now: () => now }, env: {} });
    const network = await beacon.network();
    const due = Math.ceil((now.getTime() / 1000 - network.genesisTime) / network.period) + 3;
    const early = await beacon.round(due);
    expect(early.status).toBe('PENDING');
    now = new Date(roundTime(network, due) * 1000);
    const answer = await beacon.round(due);
    expect(answer.status).toBe('PUBLISHED');
    if (answer.status === 'PUBLISHED') {
      expect(await verifyBeaconRound(network, answer.round)).toBe(true);
      expect(await verifyBeaconRound(network, { ...answer.round, round: due + 1 })).toBe(false);
    }
  });

  it('rejects rounds while its fail file exists (a lock-out on demand), names its network still, and signs again once it is gone', async () => {
    const now = new Date('2025-06-01T12:00:00Z');
    const dir = fresh();
    const beacon = new LocalBeacon({ dir, clock: { now: () => now }, env: {} });
    const network = await beacon.network();
    const past = Math.floor((now.getTime() / 1000 - network.genesisTime) / network.period) - 1;
    writeFileSync(join(dir, LOCAL_BEACON_FAIL_FILE), '');
    await expect(beacon.round(past)).rejects.toThrow(/refuses rounds while .*fail exists/);
    expect((await beacon.network()).chainHash).toBe(network.chainHash);
    rmSync(join(dir, LOCAL_BEACON_FAIL_FILE));
    expect((await beacon.round(past)).status).toBe('PUBLISHED');
  });

  it('keeps its key in the data folder: a restart is the same network', async () => {
    const dir = fresh();
    const a = await new LocalBeacon({ dir, env: {} }).network();
    const b = await new LocalBeacon({ dir, env: {} }).network();
    expect(b).toEqual(a);
    expect(statSync(join(dir, 'beacon.json')).mode & 0o077).toBe(0);
    expect((await new LocalBeacon({ dir: fresh(), env: {} }).network()).chainHash).not.toBe(a.chainHash);
  });

  it('refuses to run in production', () => {
    expect(() => new LocalBeacon({ dir: fresh(), env: { NODE_ENV: 'production' } })).toThrow(
      /development only/,
    );
    expect(() => new LocalBeacon({ dir: fresh(), env: { AWS_LAMBDA_FUNCTION_NAME: 'x' } })).toThrow(
      /development only/,
    );
  });
});

describe('createBeacon', () => {
  it('drand in a deployment (KMS keys), local otherwise; BEACON decides when set', () => {
    expect(createBeacon({ KEY_SERVICE: 'kms' })).toBeInstanceOf(HttpBeacon);
    expect(createBeacon({ BEACON: 'local', LOCAL_BEACON_DIR: fresh() })).toBeInstanceOf(LocalBeacon);
    expect(createBeacon({ LOCAL_BEACON_DIR: fresh() })).toBeInstanceOf(LocalBeacon);
    expect(() => createBeacon({ BEACON: 'other' })).toThrow(/drand or local/);
  });
});
