/**
 * A beacon of our own for dev and tests: the same scheme as drand quicknet (BLS12-381, signatures on
 * G1 of SHA-256(be64(round))), a secret key kept in a data folder (`.data/beacon`), and rounds that are
 * "published" — signed — only once their time has come on the clock it is given. Never for
 * production: its key holder could compute any round in advance.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Beacon, BeaconAnswer, Clock } from '@pyb/core';
import { type BeaconNetwork, type BeaconSigner, beaconSigner, localBeaconNetwork } from '@pyb/fairness';
import { createOnce } from '@pyb/keys';
import { notYet } from './pending';

export interface LocalBeaconOptions {
  /** Folder of its key, e.g. `.data/beacon` (created if missing). */
  dir: string;
  clock?: Clock;
  /** Seconds between rounds (default 3, as quicknet). */
  period?: number;
  /** Deployment stage; `prod` is refused. */
  stage?: string;
  env?: Record<string, string | undefined>;
}

/**
 * While a file of this name is in the folder, `round` rejects, as a broken beacon setup would (the use
 * cases lock the table: RANDOMNESS) — to see a lock-out locally. `network` keeps answering. Dev only:
 * no Lambda bundle holds this class.
 */
export const LOCAL_BEACON_FAIL_FILE = 'fail';

interface KeyFile {
  secretKey: string;
  genesisTime: number;
  period: number;
}

export class LocalBeacon implements Beacon {
  private readonly key: KeyFile;
  private readonly clock: Clock;
  private readonly failFile: string;
  /** The signer and its network, made on first use (the curve is loaded then: fairness `bls`). */
  private signer: Promise<{ signer: BeaconSigner; network: BeaconNetwork }> | undefined;

  constructor(options: LocalBeaconOptions) {
    const env = options.env ?? process.env;
    if (env.NODE_ENV === 'production' || options.stage === 'prod' || env.AWS_LAMBDA_FUNCTION_NAME) {
      throw new Error('the local beacon is for development only; use drand (BEACON=drand) in production');
    }
    this.clock = options.clock ?? { now: () => new Date() };
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    this.failFile = join(options.dir, LOCAL_BEACON_FAIL_FILE);
    const path = join(options.dir, 'beacon.json');
    const genesis = Math.floor(this.clock.now().getTime() / 1000) - 3600;
    const key: KeyFile = {
      secretKey: randomBytes(32).toString('hex'),
      genesisTime: genesis,
      period: options.period ?? 3,
    };
    createOnce(path, `${JSON.stringify(key, null, 2)}\n`);
    this.key = JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
  }

  private ready(): Promise<{ signer: BeaconSigner; network: BeaconNetwork }> {
    this.signer ??= beaconSigner(Uint8Array.from(Buffer.from(this.key.secretKey, 'hex'))).then((signer) => ({
      signer,
      network: localBeaconNetwork(signer.publicKey, this.key.genesisTime, this.key.period),
    }));
    return this.signer;
  }

  async network(): Promise<BeaconNetwork> {
    return (await this.ready()).network;
  }

  async round(round: number): Promise<BeaconAnswer> {
    if (existsSync(this.failFile)) {
      throw new Error(
        `the local beacon refuses rounds while ${this.failFile} exists (a failure on demand: delete the file)`,
      );
    }
    const { signer, network } = await this.ready();
    return (
      notYet(network, round, this.clock) ?? {
        status: 'PUBLISHED',
        round: { round, signature: signer.sign(round) },
      }
    );
  }
}
