/**
 * What the verify tests share: a scratch folder removed after the file's tests, files written into
 * it (JSON unless already text), and the --trust-beacon pin of a beacon network.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BeaconNetwork } from '@pyb/fairness';
import { afterAll } from 'vitest';

/** A folder for this test file; `write(name, value)` puts a file in it and returns its path. */
export function scratch(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };
  return { dir, write };
}

/** `--trust-beacon`'s value for a network of our own: publicKey:genesisTime:period:scheme. */
export const beaconPin = (n: BeaconNetwork) => `${n.publicKey}:${n.genesisTime}:${n.period}:${n.scheme}`;
