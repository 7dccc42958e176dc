import { readFile } from 'node:fs/promises';
import { verifyBundle } from '@pyb/fairness';
import { type Command, type CommandIo, jsonLine, parseOptions, UsageError } from '../command';

const usage = `usage: baccarat verify BUNDLE.json [--public-key KEY.pem ...] [--json]
       baccarat verify - ...        read the bundle from stdin

Verifies a closed shoe's public bundle (the audit export): the signed statement, the revealed seed
against its commitment, the shoe order, cut card and burn, every coup's cards and outcome, every
payout, the audit chain and its signed head. Prints every check; exit code 1 if any failed.
  --public-key FILE  the operator's published key (PEM or base64 SPKI): the bundle must be signed by it.
                     Repeat it for each key of a rotation (a shoe opened under one key, closed under
                     the next carries both): every key in the bundle must be one of them`;

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

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'verify a closed shoe bundle: signatures, seeds, every coup and payout, audit chain',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(
      args,
      { 'public-key': { type: 'string', multiple: true }, json: { type: 'boolean', default: false } },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give one bundle file (or - for stdin)');
    const text = await readInput(positionals[0]!, io, 'bundle');
    const keyFiles = values['public-key'] ?? [];
    const trusted: string[] = [];
    for (const file of keyFiles) trusted.push(await readInput(file, io, 'key'));
    let bundle: unknown;
    let checks: ReturnType<typeof verifyBundle>;
    try {
      bundle = JSON.parse(text);
      checks = verifyBundle(bundle, trusted.length === 0 ? {} : { trustedPublicKey: trusted });
    } catch (error) {
      checks = [{ id: 'bundle.format', ok: false, detail: `not JSON: ${(error as Error).message}` }];
    }
    const failed = checks.filter((c) => !c.ok);
    if (values.json) {
      io.stdout.write(jsonLine({ ok: failed.length === 0, failed: failed.map((c) => c.id), checks }));
    } else {
      const width = Math.min(48, Math.max(...checks.map((c) => c.id.length)));
      for (const c of checks)
        io.stdout.write(`${c.ok ? 'PASS' : 'FAIL'}  ${c.id.padEnd(width)}  ${c.detail}\n`);
      io.stdout.write(
        failed.length === 0
          ? `\nverified: all ${checks.length} checks passed\n`
          : `\nNOT VERIFIED: ${failed.length} of ${checks.length} checks failed: ${failed.map((c) => c.id).join(', ')}\n`,
      );
    }
    return failed.length === 0 ? 0 : 1;
  },
};
