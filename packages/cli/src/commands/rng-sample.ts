import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { CARDS_PER_DECK } from '@pyb/engine';
import {
  bytesToHex,
  dealShoe,
  hexToBytes,
  isHex,
  SERVER_SEED_BYTES,
  SHOE_ENTROPY_SCHEME,
  SHOE_V3_SCHEME,
  ShoeStream,
} from '@pyb/fairness';
import { createKeyService, keyServiceConfigFromEnv } from '@pyb/keys';
import { ShoeRandomnessTests } from '@pyb/lab';
import cliProgress from 'cli-progress';
import { type Command, type CommandIo, intOption, jsonLine, parseOptions, UsageError } from '../command';
import { dealLabShoeV3, type LabBeacon, labBeacon, ROUNDS_PER_SAMPLE } from './rng-sample-v3';
import { DEFAULT_MAX_BEHIND, DEFAULT_MIN_BEHIND } from './shoe';

const usage = `usage: baccarat rng-sample --kind stream|shoes --out FILE [--count N]
                          [--server-seed HEX | --seeds FILE.seeds.csv] [--client-seed TEXT]
                          [--shoe-id-prefix ID] [--scheme pyb-shoe/3|pyb-shoe/2] [--beacon-key HEX]
                          [--bytes-per-seed N] [--decks N] [--min-behind N] [--max-behind N]
                          [--format csv|bin] [--test] [--json]

Writes a sample of the shoe RNG for an external test lab (docs/rng.md), exactly as production draws it:
the HMAC-SHA256 stream of docs/provably-fair.md §6 and the shoes of §7 (rejection sampling, Fisher–Yates,
cut card). Each sample i uses a fresh 32-byte server seed from the key service the environment names
(KEY_SERVICE=kms: AWS KMS GenerateRandom, with SEED_KEY_ID and SIGNING_KEY_ID set; otherwise the local
key service in LOCAL_KEYS_DIR, default .data/keys), or the given --server-seed, with shoe id
"<prefix>-<i>". --seeds replays the samples a FILE.seeds.csv lists (seed, client seed and shoe id of
each row, in order), so a lab can regenerate a published sample byte for byte and check its sha256.
  --kind stream       raw stream bytes, binary, for dieharder (-g 201) or TestU01: the first
                      --bytes-per-seed bytes (default 1048576) of each of --count seeds, concatenated
  --kind shoes        --count dealt shoes (default 10000), dealt as --scheme deals them:
    pyb-shoe/3        (default, the scheme in force, §15) the start from the shoe entropy (server seed,
                      the client seed as the operator's contribution, beacon round i*${ROUNDS_PER_SAMPLE}+1), each
                      coup by drawCoupV3 from the next round, to the cut card; the cards behind it are
                      drawn on by the same coup streams so the tests see whole orders. The rounds are
                      signed by a lab beacon of drand's scheme under --beacon-key (default a fresh key,
                      written to FILE.json); csv rows add dealt_in_play, where play stopped
    pyb-shoe/2        the Fisher–Yates shuffle of §7
  --format csv        (shoes, default) header "shoe,cut_index,p0,...,p<n-1>", one row per shoe; a cell
                      is the card at that position, 0..51 = suit*13 + rank (suits S H D C, ranks A..K)
  --format bin        (shoes) one byte per card (0..51), n bytes per shoe, no separator
  --test              (shoes) run the standards' tests (frequency, runs, serial correlation, 99%)
Beside FILE it writes FILE.seeds.csv (index,server_seed,client_seed,shoe_id: every sample can be
re-dealt with \`baccarat shoe\`) and FILE.json (what, how many, sha256 of FILE, seed source).`;

const DEFAULT_BYTES_PER_SEED = 1 << 20;
const DEFAULT_SHOES = 10_000;
/** Bytes written to the file at a time. */
const CHUNK = 1 << 16;
/** Long enough to be worth a progress bar. */
const PROGRESS_FROM = 64;

type Kind = 'stream' | 'shoes';

/** What sample i is drawn from. */
interface Sample {
  seed: Uint8Array;
  clientSeed: string;
  shoeId: string;
}

interface SeedSource {
  readonly description: string;
  /** How many samples the source fixes (a seeds file), if it does. */
  readonly count?: number;
  next(i: number): Promise<Sample>;
}

/** A FILE.seeds.csv as this command writes it: index,server_seed,client_seed,shoe_id. */
function seedsFile(path: string): SeedSource {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --seeds ${path}: ${(error as Error).message}`);
  }
  const rows = text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line !== '')
    .map((line, i) => {
      const cells = parseCsvLine(line);
      const [index, seed, clientSeed, shoeId] = cells;
      if (
        cells.length !== 4 ||
        Number(index) !== i ||
        !isHex(seed ?? '', SERVER_SEED_BYTES) ||
        !clientSeed ||
        !shoeId
      ) {
        throw new UsageError(`--seeds ${path}: row ${i + 1} is not "index,server_seed,client_seed,shoe_id"`);
      }
      return { seed: hexToBytes(seed!.toLowerCase()), clientSeed, shoeId };
    });
  if (rows.length === 0) throw new UsageError(`--seeds ${path} lists no samples`);
  return { description: `replayed from ${path}`, count: rows.length, next: async (i) => rows[i]! };
}

/** One CSV line: fields separated by commas, double-quoted when they hold a comma or a quote. */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let at = 0;
  for (;;) {
    if (line[at] === '"') {
      let value = '';
      at++;
      for (;;) {
        const end = line.indexOf('"', at);
        if (end < 0) throw new UsageError(`unterminated quote in ${line}`);
        value += line.slice(at, end);
        at = end + 1;
        if (line[at] !== '"') break;
        value += '"';
        at++;
      }
      cells.push(value);
    } else {
      const end = line.indexOf(',', at);
      cells.push(line.slice(at, end < 0 ? line.length : end));
      at = end < 0 ? line.length : end;
    }
    if (at >= line.length) return cells;
    at++; // the comma
  }
}

async function seedSource(
  given: string | undefined,
  clientSeed: string,
  prefix: string,
): Promise<SeedSource> {
  const sample = (seed: Uint8Array, i: number): Sample => ({ seed, clientSeed, shoeId: `${prefix}-${i}` });
  if (given !== undefined) {
    if (!isHex(given, SERVER_SEED_BYTES)) {
      throw new UsageError(`--server-seed must be ${SERVER_SEED_BYTES * 2} hex digits`);
    }
    const seed = hexToBytes(given.toLowerCase());
    return { description: 'given (--server-seed)', next: async (i) => sample(seed, i) };
  }
  const config = keyServiceConfigFromEnv(process.env);
  const keys = createKeyService(config);
  return {
    description:
      config.kind === 'kms'
        ? 'AWS KMS GenerateRandom (KEY_SERVICE=kms), one fresh seed per sample'
        : `local key service (${config.dir}): Node crypto.randomBytes, one fresh seed per sample`,
    next: async (i) => sample(await keys.generateSeed(), i),
  };
}

/** A file written in chunks with backpressure, hashed as it goes. */
class SampleFile {
  private readonly out;
  private readonly hash = createHash('sha256');
  bytes = 0;

  constructor(readonly path: string) {
    this.out = createWriteStream(path);
  }

  async write(chunk: Uint8Array | string): Promise<void> {
    this.hash.update(chunk);
    this.bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  async close(): Promise<string> {
    this.out.end();
    await once(this.out, 'finish');
    return this.hash.digest('hex');
  }
}

function progressBar(io: CommandIo, total: number, unit: string) {
  if (total < PROGRESS_FROM || !io.stderr.isTTY) return undefined;
  const bar = new cliProgress.SingleBar(
    {
      format: `rng-sample [{bar}] {percentage}% | {value}/{total} ${unit} | ETA {eta}s`,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}

export const rngSampleCommand: Command = {
  name: 'rng-sample',
  summary: 'write RNG lab samples (raw stream bytes, dealt shoes) and run the standards’ tests',
  usage,
  async run(args, io) {
    const { values } = parseOptions(args, {
      kind: { type: 'string' },
      out: { type: 'string' },
      count: { type: 'string' },
      'server-seed': { type: 'string' },
      seeds: { type: 'string' },
      'client-seed': { type: 'string', default: 'lab-sample' },
      'shoe-id-prefix': { type: 'string', default: 'lab' },
      scheme: { type: 'string' },
      'beacon-key': { type: 'string' },
      'bytes-per-seed': { type: 'string' },
      decks: { type: 'string', default: '8' },
      'min-behind': { type: 'string' },
      'max-behind': { type: 'string' },
      format: { type: 'string' },
      test: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    const kind = values.kind as Kind | undefined;
    if (kind !== 'stream' && kind !== 'shoes') throw new UsageError('--kind must be stream or shoes');
    if (!values.out) throw new UsageError('--out FILE is required');
    if (kind === 'stream' && (values.format !== undefined || values.test || values.scheme !== undefined)) {
      throw new UsageError('--format, --test and --scheme are for --kind shoes');
    }
    const scheme = values.scheme ?? SHOE_V3_SCHEME;
    if (scheme !== SHOE_V3_SCHEME && scheme !== SHOE_ENTROPY_SCHEME) {
      throw new UsageError(`--scheme must be ${SHOE_V3_SCHEME} or ${SHOE_ENTROPY_SCHEME}`);
    }
    const v3 = kind === 'shoes' && scheme === SHOE_V3_SCHEME;
    if (values['beacon-key'] !== undefined && (!v3 || !isHex(values['beacon-key'], 32))) {
      throw new UsageError(`--beacon-key is 64 hex digits, for --kind shoes --scheme ${SHOE_V3_SCHEME}`);
    }
    const format = values.format ?? 'csv';
    if (format !== 'csv' && format !== 'bin') throw new UsageError('--format must be csv or bin');
    if (values.seeds !== undefined && (values['server-seed'] !== undefined || values.count !== undefined)) {
      throw new UsageError('--seeds fixes the seeds and the count: leave out --server-seed and --count');
    }
    const bytesPerSeed =
      intOption('bytes-per-seed', values['bytes-per-seed'], 4, 2 ** 36) ?? DEFAULT_BYTES_PER_SEED;
    if (bytesPerSeed % 4 !== 0) throw new UsageError('--bytes-per-seed must be a multiple of 4');
    const decks = intOption('decks', values.decks, 1, 8)!;
    const cutCard = {
      minCardsBehind: intOption('min-behind', values['min-behind'], 7, 8 * 52) ?? DEFAULT_MIN_BEHIND,
      maxCardsBehind: intOption('max-behind', values['max-behind'], 7, 8 * 52) ?? DEFAULT_MAX_BEHIND,
    };
    const clientSeed = values['client-seed'];
    const prefix = values['shoe-id-prefix'];
    const seeds =
      values.seeds !== undefined
        ? seedsFile(values.seeds)
        : await seedSource(values['server-seed'], clientSeed, prefix);
    const count =
      seeds.count ?? intOption('count', values.count, 1, 1e9) ?? (kind === 'stream' ? 1024 : DEFAULT_SHOES);

    const beacon = v3 ? await lab(values['beacon-key']) : undefined;
    const file = new SampleFile(values.out);
    const seedLines: string[] = ['index,server_seed,client_seed,shoe_id'];
    const total = decks * CARDS_PER_DECK;
    const tests = values.test ? new ShoeRandomnessTests(total) : undefined;
    const bar = progressBar(io, count, kind === 'stream' ? 'seeds' : 'shoes');
    const started = performance.now();
    try {
      if (kind === 'shoes' && format === 'csv') {
        const positions = Array.from({ length: total }, (_, p) => `p${p}`).join(',');
        await file.write(`shoe,cut_index,${beacon ? 'dealt_in_play,' : ''}${positions}\n`);
      }
      for (let i = 0; i < count; i++) {
        const { seed, clientSeed, shoeId } = await seeds.next(i);
        seedLines.push(`${i},${bytesToHex(seed)},${csvText(clientSeed)},${csvText(shoeId)}`);
        if (kind === 'stream') {
          await writeStream(file, new ShoeStream(seed, clientSeed, shoeId), bytesPerSeed);
        } else {
          const shoe = dealt(() =>
            beacon
              ? dealLabShoeV3({ index: i, serverSeed: seed, clientSeed, shoeId, decks, cutCard, beacon })
              : dealShoe({ serverSeed: seed, clientSeed, shoeId, decks, cutCard }),
          );
          tests?.add(shoe.order);
          const played = 'dealtInPlay' in shoe ? `${shoe.dealtInPlay},` : '';
          await file.write(
            format === 'csv' ? `${i},${shoe.cutIndex},${played}${shoe.order.join(',')}\n` : shoe.order,
          );
        }
        bar?.increment();
        if (bar && i % 256 === 255) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      bar?.stop();
    }
    const sha256 = await file.close();
    const elapsedMs = Math.round(performance.now() - started);
    writeFileSync(`${values.out}.seeds.csv`, `${seedLines.join('\n')}\n`);
    const manifest = {
      sample: values.out,
      kind,
      ...(kind === 'shoes'
        ? { scheme, format, decks, cutCard, shoes: count }
        : { seeds: count, bytesPerSeed }),
      bytes: file.bytes,
      sha256,
      generator:
        kind === 'stream'
          ? 'pyb-shoe stream: HMAC-SHA256(server seed, be32|c|‖c‖be32|s|‖s‖be32(k)), docs/provably-fair.md §6'
          : beacon
            ? 'pyb-shoe/3 deal: the start, then each coup by drawCoupV3 from its beacon round, docs/provably-fair.md §15; the cards behind the cut card drawn on by the same coup streams'
            : 'pyb-shoe deal: rejection-sampled Fisher–Yates, then the cut card, docs/provably-fair.md §7',
      ...(beacon && {
        beacon: {
          ...beacon.network,
          secretKey: beacon.secretKey,
          rounds: `sample i: round i*${ROUNDS_PER_SAMPLE}+1 names the contributions' close, i*${ROUNDS_PER_SAMPLE}+2, +3, … its coups`,
        },
      }),
      seedSource: seeds.description,
      ...(values.seeds === undefined && { clientSeed, shoeIds: `${prefix}-0 .. ${prefix}-${count - 1}` }),
      seedsFile: `${values.out}.seeds.csv`,
      elapsedMs,
      ...(tests && { tests: tests.results() }),
    };
    writeFileSync(`${values.out}.json`, `${JSON.stringify(manifest, null, 2)}\n`);
    io.stdout.write(values.json ? jsonLine(manifest) : text(manifest));
    return manifest.tests?.some((t) => !t.pass) ? 1 : 0;
  },
};

/** A shoe, its library's refusal of the options (cut card bounds) said as a usage error. */
function dealt<T>(deal: () => T): T {
  try {
    return deal();
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
}

/** The lab beacon of `--beacon-key`, or of a fresh key. */
async function lab(given: string | undefined): Promise<LabBeacon> {
  try {
    return await labBeacon(given === undefined ? randomBytes(32) : hexToBytes(given.toLowerCase()));
  } catch (error) {
    throw new UsageError(`--beacon-key is not a BLS12-381 secret key: ${(error as Error).message}`);
  }
}

/** The first `bytes` bytes of the stream, in order: each u32 draw is 4 stream bytes, big-endian. */
async function writeStream(file: SampleFile, stream: ShoeStream, bytes: number): Promise<void> {
  const chunk = new Uint8Array(Math.min(CHUNK, bytes));
  const view = new DataView(chunk.buffer);
  let left = bytes;
  while (left > 0) {
    const size = Math.min(chunk.length, left);
    for (let at = 0; at < size; at += 4) view.setUint32(at, stream.nextU32(), false);
    await file.write(size === chunk.length ? chunk : chunk.subarray(0, size));
    left -= size;
  }
}

const csvText = (value: string): string =>
  /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

function text(m: {
  sample: string;
  kind: Kind;
  bytes: number;
  sha256: string;
  seedSource: string;
  elapsedMs: number;
  tests?: ReturnType<ShoeRandomnessTests['results']>;
}): string {
  const lines = [
    `${m.kind} sample ${m.sample}: ${m.bytes} bytes in ${m.elapsedMs} ms, sha256 ${m.sha256}`,
    `seeds: ${m.seedSource} (listed in ${m.sample}.seeds.csv); manifest ${m.sample}.json`,
  ];
  if (m.tests) {
    lines.push(
      '',
      `${'test'.padEnd(26)} ${'statistic'.padStart(12)} ${'distribution'.padStart(16)} ${'p'.padStart(9)}  verdict`,
    );
    for (const t of m.tests) {
      lines.push(
        `${t.test.padEnd(26)} ${t.statistic.toFixed(4).padStart(12)} ${t.distribution.padStart(16)} ${t.pValue.toFixed(4).padStart(9)}  ${t.pass ? 'PASS' : 'FAIL'}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
