/**
 * What a caller kept outside the platform, against the evidence (docs/provably-fair.md §13, §11.3):
 * - a signed head (a resolve, void or close-betting answer): `receipt.N`;
 * - a contributor's receipt (the answer of POST /v1/shoes/{id}/contributions, or its signed head):
 *   `receipt.N.contribution` — his seed is in the chain at the index and event it was given, so a
 *   seed slipped in before his, or the order changed, is refused (C1);
 * - a shoe-opened receipt (the answer of POST /v1/tables/{id}/shoes, or its `{statement, signature}`):
 *   `receipt.N.opened` — the shoe the operator was told was opened under a number at a table is this
 *   one, or the one this one's statement names as opened before it (`previousOpened`): a shoe deleted
 *   before its close and reopened under the same number, or one opened in between and dropped,
 *   leaves a gap (D2).
 * And `--seed INDEX:TEXT`: `seed.INDEX`, the contributor's own seed at its index.
 * Each receipt is an envelope `{ statement, signature }` (plus the answer's other fields), so an
 * outside time-stamp can be attached to it later without changing what is signed.
 */
import type { Event } from './audit-events';
import { dataOf, type Evidence } from './audit-events';
import { ShoeStatementSchema, SignedHeadSchema } from './bundle';
import type { SignedHead } from './heads';
import { SHOE_SCHEMES, type ShoeStatement, statementBytes, statementDigest } from './statement';
import { headProblem } from './verify-audit';
import type { KeyRing } from './verify-keys';
import type { Report } from './verify-report';

type Result = [ok: boolean, detail: string];

/** A contributor's own seed, as he gave it (`--seed INDEX:TEXT`). */
export interface OwnSeed {
  index: number;
  seed: string;
}

/** `INDEX:TEXT` (the text may hold colons); undefined when malformed. */
export function parseOwnSeed(text: string): OwnSeed | undefined {
  const at = text.indexOf(':');
  if (at <= 0) return undefined;
  const index = Number(text.slice(0, at));
  if (!Number.isSafeInteger(index) || index < 0 || String(index) !== text.slice(0, at)) return undefined;
  return { index, seed: text.slice(at + 1) };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export async function checkReceipts(
  report: Report,
  evidence: Evidence,
  receipts: readonly unknown[],
  keys: KeyRing,
) {
  const list = evidence.audit.events.map((e) => e.event as Event);
  for (const [i, input] of receipts.entries()) {
    const n = i + 1;
    const statement = isRecord(input) && isRecord(input.statement) ? input.statement : undefined;
    if (isRecord(input) && statement && (SHOE_SCHEMES as readonly unknown[]).includes(statement.scheme)) {
      await report.tryAsync(`receipt.${n}.opened`, () => openedProblem(evidence, input, keys));
      continue;
    }
    // A contribution's answer carries its signed head as `receipt`; a head alone is accepted too.
    const contribution = isRecord(input) && isRecord(input.receipt) ? input : undefined;
    const parsed = SignedHeadSchema().safeParse(contribution ? contribution.receipt : input);
    if (!parsed.success) {
      report.add(`receipt.${n}`, false, `not a signed head: ${parsed.error.issues[0]?.message}`);
      continue;
    }
    const head = parsed.data as SignedHead;
    if (head.statement.type === 'SEED_CONTRIBUTED' || contribution) {
      await report.tryAsync(`receipt.${n}.contribution`, () =>
        contributionProblem(evidence, head, contribution, list, keys),
      );
      continue;
    }
    await report.tryAsync(`receipt.${n}`, () => headProblem(evidence, head, list, keys));
  }
}

/** Where the chain holds a seed, by its SEED_CONTRIBUTED event. */
const seedsOf = (list: Event[]) =>
  list.flatMap((e, seq) =>
    e.type === 'SEED_CONTRIBUTED' ? [{ seq, ...(dataOf(e) as { index: number; seed: string }) }] : [],
  );

async function contributionProblem(
  evidence: Evidence,
  head: SignedHead,
  answer: Record<string, unknown> | undefined,
  list: Event[],
  keys: KeyRing,
): Promise<Result> {
  const s = head.statement;
  if (s.type !== 'SEED_CONTRIBUTED') return [false, `a ${s.type} head, not a contribution's receipt`];
  const given =
    answer && typeof answer.seed === 'string' && typeof answer.index === 'number'
      ? { index: answer.index, seed: answer.seed }
      : undefined;
  if (given) {
    // The answer's seed and index are not signed themselves: the signed head binds them, through
    // the event it is the hash of. Say first where his seed went if it moved.
    const found = seedsOf(list).filter((c) => c.seed === given.seed);
    const there = found.find((c) => c.index === given.index && c.seq === s.seq);
    if (!there) {
      return [
        false,
        found.length === 0
          ? `seed ${JSON.stringify(given.seed)} was given index ${given.index} (event ${s.seq}), and the shoe does not hold it: dropped or changed (C1)`
          : `seed ${JSON.stringify(given.seed)} was given index ${given.index} (event ${s.seq}); the chain has it at ${found.map((c) => `index ${c.index} (event ${c.seq})`).join(', ')}: a seed was slipped in before it, or the order changed (C1)`,
      ];
    }
  }
  const [ok, detail] = await headProblem(evidence, head, list, keys);
  if (!ok)
    return [
      false,
      `${detail} (C1: the seeds up to this contribution are not as they were when it was received)`,
    ];
  const d = dataOf(list[s.seq]!) as { index: number; seed: string };
  return [
    true,
    `seed ${JSON.stringify(d.seed)} at index ${d.index} (event ${s.seq}): the chain up to it is as it was when received, signed ${s.at} by ${s.keyId}`,
  ];
}

async function openedProblem(
  evidence: Evidence,
  input: Record<string, unknown>,
  keys: KeyRing,
): Promise<Result> {
  const parsed = ShoeStatementSchema().safeParse(input.statement);
  if (!parsed.success || typeof input.signature !== 'string')
    return [false, `not a signed shoe statement: ${parsed.error?.issues[0]?.message ?? 'no signature'}`];
  const raw = input.statement as ShoeStatement;
  const got = parsed.data as ShoeStatement;
  const signed = await keys.signed(got.keyId, statementBytes(raw), input.signature);
  if (!signed.ok) return [false, signed.detail];
  const invalid = keys.invalidAt(got.keyId, got.createdAt);
  if (invalid) return [false, invalid];
  const here = evidence.statement;
  const named = `shoe ${got.shoeId} (number ${got.number} at table ${got.tableId}, opened ${got.createdAt})`;
  if (got.tableId !== here.tableId) return [false, `the receipt is of ${named}: another table`];
  if (got.number === here.number) {
    if (got.shoeId === here.shoeId && statementDigest(got) === statementDigest(here))
      return [true, `${named}: this shoe, as its statement was signed when it was opened`];
    return [
      false,
      `${named} was opened under this shoe's number; this evidence is shoe ${here.shoeId} (opened ${here.createdAt}): a shoe opened under number ${here.number} was discarded before its close and another opened in its place (D2)`,
    ];
  }
  if (got.number === here.number - 1) {
    const link = here.previousOpened;
    if (link === undefined)
      return [
        false,
        `this shoe's statement does not name the shoe opened before it (a statement made before it did)`,
      ];
    if (link?.shoeId === got.shoeId && link.statement === statementDigest(got))
      return [true, `${named} is the shoe this one names as opened before it`];
    return [
      false,
      `${named} was opened before this one, which names ${link ? `shoe ${link.shoeId} (statement ${link.statement})` : 'none'}: the shoe opened before it was discarded or replaced (D2)`,
    ];
  }
  return [
    false,
    `the receipt is of ${named}, neither this shoe (number ${here.number}) nor the one before it: check it against that shoe's evidence`,
  ];
}

/** The statement's link to the shoe opened before it (`previousOpened`): numbers without a gap. */
export function checkPreviousOpened(report: Report, statement: ShoeStatement) {
  const link = statement.previousOpened;
  if (link === undefined) return; // a statement made before the link existed
  const closed = statement.previous;
  report.try('statement.previous-opened', () => {
    if (link === null)
      return statement.number === 1
        ? [true, 'the first shoe opened at its table']
        : [false, `shoe number ${statement.number} names no shoe opened before it`];
    if (link.number !== statement.number - 1)
      return [false, `shoe number ${statement.number} names shoe number ${link.number} as opened before it`];
    if (closed && closed.number !== link.number)
      return [
        true,
        `follows shoe ${link.shoeId} (number ${link.number}, statement ${link.statement}), opened and never closed (abandoned, or discarded: it is counted); the last closed is number ${closed.number}`,
      ];
    return [
      true,
      `follows shoe ${link.shoeId} (number ${link.number}), whose signed statement hashes to ${link.statement}`,
    ];
  });
}

/** `--seed INDEX:TEXT`: the contributor's own seed is the shoe's seed at that index. */
export function checkOwnSeeds(report: Report, evidence: Evidence, seeds: readonly OwnSeed[]) {
  for (const own of seeds) {
    report.try(`seed.${own.index}`, () => {
      const at = evidence.contributions[own.index];
      if (at?.seed === own.seed)
        return [
          true,
          `seed ${JSON.stringify(own.seed)} is the shoe's seed ${own.index} (${at.kind.toLowerCase()}), in the digest the contributions closed with`,
        ];
      const elsewhere = evidence.contributions.filter((c) => c.seed === own.seed).map((c) => c.index);
      return [
        false,
        elsewhere.length > 0
          ? `seed ${JSON.stringify(own.seed)} is at index ${elsewhere.join(', ')}, not ${own.index}: a seed was slipped in before it, or the order changed (C1)`
          : `the shoe has no seed ${JSON.stringify(own.seed)}${at ? ` (index ${own.index} holds another)` : ` (it has ${evidence.contributions.length})`}: dropped or changed (C1)`,
      ];
    });
  }
}
