/**
 * `baccarat verify` on a bundle, as a regulator runs it: the bundle and the trusted keys written to
 * files, `--json`, the verdict's exit code. In this process by default (@pyb/cli's runCli: the same
 * main() the bin calls, without starting Node and its TypeScript loader, about a second a run); with
 * `bin: true` the installed bin is spawned, as side-bets-shoe.dynamodb.test.ts does once per shoe
 * (and packages/cli/test/cli.test.ts for the other commands).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '@pyb/cli';
import type { BeaconNetwork, Check, ShoeBundle, SignedKeyCertificate } from '@pyb/fairness';

export interface VerifyOptions {
  /** Folder to write the bundle and key files in. */
  dir: string;
  /** PEMs to pass as --public-key. */
  publicKeys: readonly string[];
  /** Beacon networks to pass as --trust-beacon (each written to a JSON file: all its fields). */
  trustBeacons: readonly BeaconNetwork[];
  /** Every generation's certificate, as GET /v1/signing-key lists them: --key-certificates. */
  keyCertificates?: readonly SignedKeyCertificate[];
  /** TSA certificates (PEM) to pass as --trust-tsa. */
  trustTsas?: readonly string[];
  /** Spawn node_modules/.bin/baccarat instead of running it in this process. */
  bin?: boolean;
}

export interface VerifyRun {
  code: number;
  failed: string[];
  checks: Check[];
}

const spawn = promisify(execFile);

export async function baccaratVerify(bundle: ShoeBundle, o: VerifyOptions): Promise<VerifyRun> {
  const id = randomBytes(6).toString('hex');
  const file = join(o.dir, `bundle-${id}.json`);
  writeFileSync(file, JSON.stringify(bundle));
  const args = ['verify', file, '--json'];
  o.publicKeys.forEach((pem, i) => {
    const path = join(o.dir, `key-${id}-${i}.pem`);
    writeFileSync(path, pem);
    args.push('--public-key', path);
  });
  o.trustBeacons.forEach((network, i) => {
    const path = join(o.dir, `beacon-${id}-${i}.json`);
    writeFileSync(path, JSON.stringify(network));
    args.push('--trust-beacon', path);
  });
  (o.trustTsas ?? []).forEach((pem, i) => {
    const path = join(o.dir, `tsa-${id}-${i}.pem`);
    writeFileSync(path, pem);
    args.push('--trust-tsa', path);
  });
  if (o.keyCertificates) {
    const path = join(o.dir, `certificates-${id}.json`);
    writeFileSync(path, JSON.stringify({ certificates: o.keyCertificates }));
    args.push('--key-certificates', path);
  }
  const out = o.bin
    ? await spawn('./node_modules/.bin/baccarat', args).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
      )
    : await runCli(args);
  const parsed = JSON.parse(out.stdout) as { failed: string[]; checks: Check[] };
  return { code: out.code, failed: parsed.failed, checks: parsed.checks };
}
