/**
 * Receipts kept outside the platform (docs/provably-fair.md §13 "Receipts"; threat rows C1, D2):
 * a contributor's receipt and his own seed (`--seed`), a shoe-opened receipt. Each attack is built as
 * an insider with database write access and the signing key would build it: a whole shoe, consistent
 * and signed, that every other check passes — only the receipt (or the seed) the outsider kept
 * refuses it, by a named check, in both verifiers.
 */
import { describe, expect, it } from 'vitest';
import {
  bytesToBase64,
  type Check,
  type HeadStatement,
  headStatementBytes,
  parseOwnSeed,
  type ShoeBundle,
  statementBytes,
  statementDigest,
  verifyShoe,
} from '../src/index';
import { demoBundleV3, testBeacon, testKey, testTsaPem } from './helpers';
import { independentVerify } from './independent';

const BEACON = await testBeacon();
const GEN1 = testKey('key-1', '2024-06-01T00:00:00.000Z');
const OPERATOR = {
  trustedPublicKey: GEN1.pem,
  trustedBeacons: [BEACON.network],
  // the demo shoe's heads naming a beacon round are time-stamped by the demo TSA (helpers.ts)
  trustedTimeStampAuthorities: [await testTsaPem()],
};
/** The verifier written from the document, with the operator's pins and any receipts or seeds. */
const independently = (
  b: ShoeBundle,
  more: { receipts?: readonly unknown[]; seeds?: { index: number; seed: string }[] } = {},
) =>
  independentVerify(b, {
    trustedKeys: [GEN1.pem],
    trustedTsas: OPERATOR.trustedTimeStampAuthorities,
    ...more,
  });
const failed = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => c.id);
const detail = (checks: Check[], id: string) => checks.find((c) => c.id === id)?.detail ?? '';

const SEEDS = [
  { kind: 'PLAYER', seed: 'ada at seat 1' },
  { kind: 'PLAYER', seed: 'bru at seat 2' },
  { kind: 'OPERATOR', seed: 'evening session' },
] as const;

const shoe = (over: Parameters<typeof demoBundleV3>[0] = {}) =>
  demoBundleV3({ keys: [GEN1], beacon: BEACON, rounds: 6, voided: [], burned: [], ...over });

/** The answer POST /v1/shoes/{id}/contributions gave the contributor of `index` (the platform signs it then). */
function contributionAnswer(b: ShoeBundle, index: number) {
  const seq = b.audit.events.findIndex(
    (e) => e.event.type === 'SEED_CONTRIBUTED' && (e.event.data as { index: number }).index === index,
  );
  const { event, hash } = b.audit.events[seq]!;
  const statement: HeadStatement = {
    scheme: 'pyb-head/1',
    shoeId: b.statement.shoeId,
    commitment: b.statement.commitment,
    seq,
    type: 'SEED_CONTRIBUTED',
    roundId: null,
    head: hash,
    at: String(event.at),
    keyId: GEN1.keyId,
  };
  const data = event.data as { index: number; kind: string; seed: string };
  return {
    shoeId: b.statement.shoeId,
    ...data,
    seq,
    head: hash,
    at: String(event.at),
    receipt: { statement, signature: bytesToBase64(GEN1.sign(headStatementBytes(statement))) },
  };
}

/** What the open-shoe call answered: the signed statement (and more, which the verifier ignores). */
const openedAnswer = (b: ShoeBundle) => ({
  shoeId: b.statement.shoeId,
  number: b.statement.number,
  statement: b.statement,
  signature: b.signature,
});

describe('C1: a contributor proves his seed is in the shoe, where he was told', () => {
  it('the honest shoe: his receipt (the whole answer, or its signed head) and --seed pass in both verifiers', async () => {
    const honest = await shoe({ contributions: SEEDS });
    const bru = contributionAnswer(honest, 1);
    const seeds = [parseOwnSeed('1:bru at seat 2')!];
    const result = await verifyShoe(honest, { ...OPERATOR, receipts: [bru, bru.receipt], seeds });
    expect(failed(result.checks)).toEqual([]);
    expect(result.verdict).toBe('verified');
    expect(result.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['seed.1', 'receipt.1.contribution', 'receipt.2.contribution']),
    );
    expect(independently(honest, { receipts: [bru, bru.receipt], seeds })).toEqual([]);
  });

  it('a seed slipped in before his after he contributed: the whole shoe re-made and re-signed, refused by his receipt and his seed', async () => {
    const honest = await shoe({ contributions: SEEDS });
    const bru = contributionAnswer(honest, 1);
    // The insider's shoe: same server seed, same key, one seed of his own before bru's — every
    // event, head and the close signed again; on its own it verifies.
    const forged = await shoe({
      contributions: [SEEDS[0], { kind: 'PLAYER', seed: 'insider' }, SEEDS[1], SEEDS[2]],
    });
    expect((await verifyShoe(forged, OPERATOR)).verdict).toBe('verified');
    const seeds = [parseOwnSeed('1:bru at seat 2')!];
    const result = await verifyShoe(forged, { ...OPERATOR, receipts: [bru], seeds });
    expect(failed(result.checks)).toEqual(['seed.1', 'receipt.1.contribution']);
    expect(detail(result.checks, 'receipt.1.contribution')).toContain('slipped in before it');
    expect(detail(result.checks, 'seed.1')).toContain('at index 2, not 1');
    expect(independently(forged, { receipts: [bru], seeds }).sort()).toEqual([
      'receipt.1.contribution',
      'seed.1',
    ]);
    // His signed head alone, without the answer's seed, is refused too (the chain moved under it).
    const bare = await verifyShoe(forged, { ...OPERATOR, receipts: [bru.receipt] });
    expect(failed(bare.checks)).toEqual(['receipt.1.contribution']);
  });

  it('the order changed (his seed moved first), or his seed dropped: refused', async () => {
    const honest = await shoe({ contributions: SEEDS });
    const bru = contributionAnswer(honest, 1);
    const swapped = await shoe({ contributions: [SEEDS[1], SEEDS[0], SEEDS[2]] });
    const moved = await verifyShoe(swapped, { ...OPERATOR, receipts: [bru] });
    expect(failed(moved.checks)).toEqual(['receipt.1.contribution']);
    const dropped = await shoe({ contributions: [SEEDS[0], SEEDS[2]] });
    const gone = await verifyShoe(dropped, {
      ...OPERATOR,
      receipts: [bru],
      seeds: [{ index: 1, seed: 'bru at seat 2' }],
    });
    expect(failed(gone.checks)).toEqual(['seed.1', 'receipt.1.contribution']);
    expect(detail(gone.checks, 'receipt.1.contribution')).toContain('does not hold it');
  });

  it('--seed INDEX:TEXT: the text may hold colons; a malformed one is not a seed', () => {
    expect(parseOwnSeed('0:a:b')).toEqual({ index: 0, seed: 'a:b' });
    expect([parseOwnSeed('x:a'), parseOwnSeed(':a'), parseOwnSeed('01:a'), parseOwnSeed('a')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('D2: a shoe deleted before its close and reopened under the same number leaves a gap', () => {
  /** Shoe `number` of the table; `closed` the one closed before it, as the table's record links them. */
  const opened = (
    shoeId: string,
    number: number,
    previousOpened: ShoeBundle['statement']['previousOpened'],
    closed?: ShoeBundle,
  ) =>
    shoe({
      shoeId,
      number,
      previous: closed
        ? {
            shoeId: closed.statement.shoeId,
            number: closed.statement.number,
            closeHead: closed.audit.close.head,
          }
        : null,
      previousOpened,
      contributions: SEEDS,
    });

  it('the receipt of the shoe opened under that number names another shoe: receipt.N.opened fails (both verifiers)', async () => {
    // Shoe 1 opened (the operator keeps the answer), its start seen; the insider deletes it, resets
    // the table's counter and opens shoe 1 again: consistent, signed, it verifies on its own.
    const discarded = await opened('shoe-first', 1, null);
    const reopened = await opened('shoe-again', 1, null);
    expect((await verifyShoe(reopened, OPERATOR)).verdict).toBe('verified');
    const result = await verifyShoe(reopened, { ...OPERATOR, receipts: [openedAnswer(discarded)] });
    expect(failed(result.checks)).toEqual(['receipt.1.opened']);
    expect(detail(result.checks, 'receipt.1.opened')).toContain('was discarded before its close');
    expect(independently(reopened, { receipts: [openedAnswer(discarded)] })).toEqual(['receipt.1.opened']);
    // The honest shoe with its own receipt passes.
    const own = await verifyShoe(discarded, { ...OPERATOR, receipts: [openedAnswer(discarded)] });
    expect(failed(own.checks)).toEqual([]);
  });

  it('the next shoe names the shoe opened before it: a receipt of another shoe opened in between is refused', async () => {
    const first = await opened('shoe-1', 1, null);
    const link = (b: ShoeBundle) => ({
      shoeId: b.statement.shoeId,
      number: b.statement.number,
      statement: statementDigest(b.statement),
    });
    const second = await opened('shoe-2', 2, link(first), first);
    const passes = await verifyShoe(second, {
      ...OPERATOR,
      receipts: [openedAnswer(first)],
      previous: first,
    });
    expect(failed(passes.checks)).toEqual([]);
    expect(detail(passes.checks, 'statement.previous-opened')).toContain('shoe-1');
    // The insider replaced shoe 1 (deleted, reopened as shoe-1b) before opening shoe 2: shoe 2 names
    // shoe-1b; the operator's receipt of shoe-1 refuses it.
    const replaced = await opened('shoe-1b', 1, null);
    const after = await opened('shoe-2', 2, link(replaced), replaced);
    const caught = await verifyShoe(after, { ...OPERATOR, receipts: [openedAnswer(first)] });
    expect(failed(caught.checks)).toEqual(['receipt.1.opened']);
    expect(independently(after, { receipts: [openedAnswer(first)] })).toEqual(['receipt.1.opened']);
  });

  it('statement.previous-opened: a gap in the numbers fails; a receipt signed by another key fails', async () => {
    const first = await opened('shoe-1', 1, null);
    const gap = await opened('shoe-3', 3, {
      shoeId: 'shoe-1',
      number: 1,
      statement: statementDigest(first.statement),
    });
    // (statement.previous fails as well: number 3 names no previous shoe.)
    expect(failed((await verifyShoe(gap, OPERATOR)).checks)).toContain('statement.previous-opened');
    expect(independently(gap)).toContain('statement.previous-opened');
    const other = testKey('key-1', '2024-06-01T00:00:00.000Z');
    const fake = {
      statement: first.statement,
      signature: bytesToBase64(other.sign(statementBytes(first.statement))),
    };
    expect(failed((await verifyShoe(first, { ...OPERATOR, receipts: [fake] })).checks)).toEqual([
      'receipt.1.opened',
    ]);
  });

  it('an old statement without the link still verifies (the field is optional)', async () => {
    const old = await shoe({ contributions: SEEDS });
    expect(old.statement.previousOpened).toBeUndefined();
    const result = await verifyShoe(old, OPERATOR);
    expect(result.verdict).toBe('verified');
    expect(result.checks.some((c) => c.id === 'statement.previous-opened')).toBe(false);
  });
});
