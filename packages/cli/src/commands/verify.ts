import { readFile } from 'node:fs/promises';
import {
  type BeaconNetwork,
  checkTrustedKeys,
  type OwnSeed,
  parseBeaconPin,
  parseOwnSeed,
  type SignedKeyCertificate,
  SignedKeyCertificateSchema,
  type Verdict,
  type Verification,
  verifyShoe,
} from '@pyb/fairness';
import { type Command, type CommandIo, jsonLine, parseOptions, UsageError } from '../command';

/** Exit codes: 0 verified, 1 failed, 3 consistent but untrusted (2 is a usage error, as for every command). */
export const VERDICT_EXIT: Record<Verdict, number> = { verified: 0, failed: 1, untrusted: 3 };

const usage = `usage: baccarat verify FILE.json [--public-key KEY.pem ...] [--key-certificates CERTS.json]
                       [--trust-beacon NETWORK ...] [--trust-tsa TSA.pem ...] [--receipt HEAD.json ...]
                       [--seed INDEX:TEXT ...]
                       [--previous FILE.json] [--json]
       baccarat verify - ...        read the bundle or proof from stdin

Verifies a closed shoe: its audit bundle (GET /v1/shoes/{id}/audit) or its public proof
(GET /v1/shoes/{id}/proof). Checks the signing keys and that each signature was made while its key
was valid, the signed statement, the revealed seed against its commitment, the contributed seeds and
the beacon round that fixed the order, the shoe order, cut card and burn, every coup's cards and
outcome (and in a bundle every payout), the audit chain (sequence, shoe, order of every round), the
signed round heads and the signed close. A pyb-shoe/3 shoe: each coup (and dealer-error burn) drawn
from its own beacon round — signed by the network (round.N.beacon), the one named when its betting
closed (round.N.beacon-named) — and every close of betting's signed head, time-stamped before its
round was published by a TSA you pin (--trust-tsa). Prints every check, then
the verdict:
  verified   (exit 0) every check passed, signed by keys you trust
  failed     (exit 1) some check failed
  untrusted  (exit 3) every check passed, but against keys (or a beacon) you did not say to trust:
                      consistent, which anyone with a key of their own can make a forgery
  --public-key FILE    the operator's published key (PEM, base64 SPKI, or the JSON GET /v1/signing-key
                       answers); repeat for several. Trust starts there
  --key-certificates FILE
                       every key generation's certificate as the service lists them: the JSON
                       GET /v1/signing-key answers (its certificates), or an array of certificates.
                       A generation is trusted when these show it certified by a trusted one; a
                       certificate found only in the bundle never is
  --trust-beacon NETWORK
                       trust a beacon network besides drand quicknet, by all its fields:
                       PUBLICKEY:GENESIS:PERIOD:SCHEME (a local beacon), or a JSON file (a drand chain
                       info, or the JSON GET /v1/signing-key answers: its beacon). The chain hash is
                       recomputed from the fields
  --trust-tsa FILE     a time-stamp authority's certificate (PEM: the TSA's own or its CA's), as you
                       obtained it from the TSA; repeat for several. A pyb-shoe/3 shoe's heads that
                       name a beacon round (heads.contributions.timestamp,
                       heads.round.N.betting.timestamp) must carry a token of one of these dated
                       before that round was published; a certificate in the bundle is never trusted
  --receipt FILE       a receipt kept: a signed head from a resolve, void or (pyb-shoe/3) close-betting
                       answer, a contribution's answer (your seed must be where it was received: C1),
                       or an open-shoe answer (the shoe opened under that number is this one, or the
                       one this one names as opened before it: D2); it must match the chain
  --seed INDEX:TEXT    the seed you contributed and the index it was given: it must be the shoe's there
  --previous FILE      the table's previous shoe (bundle or proof): this one must name its close head`;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function readInput(path: string, io: CommandIo, what: string): Promise<string> {
  try {
    return path === '-' ? await readAll(io.stdin) : await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

async function readJson(path: string, io: CommandIo, what: string): Promise<unknown> {
  const text = await readInput(path, io, what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} ${path} is not JSON: ${(error as Error).message}`);
  }
}

/** A key file: PEM, base64 SPKI, or the JSON GET /v1/signing-key answers (its `pem`). */
function keyText(text: string): string {
  if (!text.trimStart().startsWith('{')) return text;
  try {
    const pem = (JSON.parse(text) as { pem?: unknown }).pem;
    if (typeof pem === 'string') return pem;
  } catch {
    // not JSON after all: checked as a key below
  }
  return text;
}

/** The certificates of a --key-certificates file: GET /v1/signing-key's answer, or an array of them. */
function keyCertificatesOf(json: unknown, path: string): SignedKeyCertificate[] {
  const list = Array.isArray(json) ? json : (json as { certificates?: unknown } | null)?.certificates;
  const parsed = SignedKeyCertificateSchema().array().min(1).safeParse(list);
  if (!parsed.success)
    throw new UsageError(
      `--key-certificates ${path}: not the certificates GET /v1/signing-key lists (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`,
    );
  return parsed.data as SignedKeyCertificate[];
}

const LABEL = { pass: 'PASS ', fail: 'FAIL ', untrusted: 'TRUST' } as const;

function verdictLine(v: Verification): string {
  const failed = v.checks.filter((c) => !c.ok);
  const untrusted = v.checks.filter((c) => c.untrusted);
  switch (v.verdict) {
    case 'verified':
      return `VERIFIED: all ${v.checks.length} checks passed, signed by keys you trust`;
    case 'failed':
      return `NOT VERIFIED: ${failed.length} of ${v.checks.length} checks failed: ${failed.map((c) => c.id).join(', ')}`;
    case 'untrusted':
      return `UNTRUSTED: all ${v.checks.length} checks passed, but ${untrusted.map((c) => c.id).join(', ')} rest on keys, a beacon or time-stamps you did not say to trust. The evidence is consistent with itself, which a forger holding a key of his own can also achieve: pass the operator's published key (--public-key), the key certificates the service lists (--key-certificates), the beacon network (--trust-beacon) and the time-stamp authorities (--trust-tsa) to verify it`;
  }
}

export const verifyCommand: Command = {
  name: 'verify',
  summary:
    'verify a closed shoe (audit bundle or public proof): keys, seeds, beacon, every coup, audit chain',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(
      args,
      {
        'public-key': { type: 'string', multiple: true },
        'key-certificates': { type: 'string' },
        receipt: { type: 'string', multiple: true },
        seed: { type: 'string', multiple: true },
        previous: { type: 'string' },
        'trust-beacon': { type: 'string', multiple: true },
        'trust-tsa': { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
      },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give one bundle or proof file (or - for stdin)');
    const text = await readInput(positionals[0]!, io, 'bundle');
    const trusted: string[] = [];
    for (const file of values['public-key'] ?? []) trusted.push(keyText(await readInput(file, io, 'key')));
    try {
      checkTrustedKeys(trusted);
    } catch (error) {
      throw new UsageError(`--public-key: ${(error as Error).message}`);
    }
    const receipts: unknown[] = [];
    for (const file of values.receipt ?? []) receipts.push(await readJson(file, io, 'receipt'));
    const seeds: OwnSeed[] = [];
    for (const spec of values.seed ?? []) {
      const own = parseOwnSeed(spec);
      if (!own)
        throw new UsageError(
          `--seed ${spec}: give INDEX:TEXT (the index your contribution was given, then your seed)`,
        );
      seeds.push(own);
    }
    const previous =
      values.previous === undefined ? undefined : await readJson(values.previous, io, 'previous shoe');
    const beacons: BeaconNetwork[] = [];
    for (const spec of values['trust-beacon'] ?? []) {
      // Inline fields (a 96-byte key in hex, then ':'), else a file.
      const text = /^[0-9a-f]{192}:/i.test(spec) ? spec : await readInput(spec, io, 'beacon network');
      try {
        beacons.push(parseBeaconPin(text));
      } catch (error) {
        throw new UsageError(`--trust-beacon ${spec}: ${(error as Error).message}`);
      }
    }
    const tsas: string[] = [];
    for (const file of values['trust-tsa'] ?? []) {
      const pem = await readInput(file, io, 'TSA certificate');
      if (!pem.includes('-----BEGIN CERTIFICATE-----'))
        throw new UsageError(`--trust-tsa ${file}: not a PEM certificate (-----BEGIN CERTIFICATE-----)`);
      tsas.push(pem);
    }
    const certificates =
      values['key-certificates'] === undefined
        ? undefined
        : keyCertificatesOf(
            await readJson(values['key-certificates'], io, 'key certificates'),
            values['key-certificates'],
          );
    let verification: Verification;
    try {
      verification = await verifyShoe(JSON.parse(text), {
        ...(trusted.length > 0 && { trustedPublicKey: trusted }),
        ...(certificates && { keyCertificates: certificates }),
        ...(beacons.length > 0 && { trustedBeacons: beacons }),
        ...(tsas.length > 0 && { trustedTimeStampAuthorities: tsas }),
        receipts,
        ...(seeds.length > 0 && { seeds }),
        ...(previous !== undefined && { previous }),
      });
    } catch (error) {
      verification = {
        verdict: 'failed',
        format: null,
        shoeId: null,
        checks: [{ id: 'format', ok: false, detail: `not JSON: ${(error as Error).message}` }],
      };
    }
    const { verdict, checks } = verification;
    if (values.json) {
      io.stdout.write(
        jsonLine({
          verdict,
          format: verification.format,
          shoeId: verification.shoeId,
          failed: checks.filter((c) => !c.ok).map((c) => c.id),
          untrusted: checks.filter((c) => c.untrusted).map((c) => c.id),
          checks,
        }),
      );
    } else {
      const width = Math.min(48, Math.max(...checks.map((c) => c.id.length)));
      for (const c of checks) {
        const label = !c.ok ? LABEL.fail : c.untrusted ? LABEL.untrusted : LABEL.pass;
        io.stdout.write(`${label}  ${c.id.padEnd(width)}  ${c.detail}\n`);
      }
      io.stdout.write(`\n${verdictLine(verification)}\n`);
    }
    return VERDICT_EXIT[verdict];
  },
};
