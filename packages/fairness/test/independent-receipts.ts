/**
 * The second verifier's receipts (docs/provably-fair.md §13 "Receipts", written from the doc alone,
 * Node's crypto only): a contributor's receipt and `--seed` (C1), a shoe-opened receipt and the
 * statement's `previousOpened` (D2). Called by independentVerify with its own helpers.
 */
import { createHash } from 'node:crypto';

interface Head {
  statement: { seq: number; type: string; keyId: string; at: string };
  signature: string;
}
interface Statement {
  scheme: string;
  shoeId: string;
  tableId: string;
  number: number;
  keyId: string;
  createdAt: string;
  previous: { number: number } | null;
  previousOpened?: { shoeId: string; number: number; statement: string } | null;
}
export interface ReceiptEvidence {
  statement: Record<string, unknown>;
  contributions: readonly { index: number; seed: string }[];
  audit: { events: readonly { event: Record<string, unknown> }[] };
}
export interface ReceiptTools {
  headOk(head: Head): boolean;
  keyAt(keyId: string, at: string): string | undefined;
  fail(id: string): void;
  /** independent.ts's §3 helpers (passed in: no import cycle). */
  jcs(value: unknown): string;
  signatureOk(object: unknown, signatureBase64: string, publicKey: string): boolean;
}

/** §4.1: SHA-256 of the UTF-8 JCS of a statement. */
const digestOf = (t: ReceiptTools, s: unknown): string =>
  createHash('sha256').update(t.jcs(s), 'utf8').digest('hex');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function independentReceipts(
  e: ReceiptEvidence,
  receipts: readonly unknown[],
  seeds: readonly { index: number; seed: string }[],
  t: ReceiptTools,
): void {
  const here = e.statement as unknown as Statement;
  // statement.previous-opened: numbers without a gap.
  const link = here.previousOpened;
  if (link !== undefined && (link === null ? here.number !== 1 : link.number !== here.number - 1))
    t.fail('statement.previous-opened');
  for (const [i, r] of receipts.entries()) {
    const n = i + 1;
    if (!isObject(r)) {
      t.fail(`receipt.${n}`);
      continue;
    }
    if (isObject(r.statement) && String(r.statement.scheme).startsWith('pyb-shoe/')) {
      const got = r.statement as unknown as Statement;
      const key = t.keyAt(got.keyId, got.createdAt);
      const ok =
        key !== undefined &&
        t.signatureOk(got, String(r.signature), key) &&
        got.tableId === here.tableId &&
        (got.number === here.number
          ? digestOf(t, got) === digestOf(t, here)
          : got.number === here.number - 1 &&
            link?.shoeId === got.shoeId &&
            link.statement === digestOf(t, got));
      if (!ok) t.fail(`receipt.${n}.opened`);
      continue;
    }
    const answer = isObject(r.receipt) ? r : undefined;
    const head = (answer ? answer.receipt : r) as Head;
    if (!isObject(head.statement) || (!answer && head.statement.type !== 'SEED_CONTRIBUTED')) {
      if (!isObject(head.statement) || !t.headOk(head)) t.fail(`receipt.${n}`);
      continue;
    }
    // A contribution: its head holds, and the event it covers is the seed at the index it was given.
    const ev = e.audit.events[head.statement.seq]?.event;
    const data = (ev?.data ?? {}) as { index?: number; seed?: string };
    const ok =
      head.statement.type === 'SEED_CONTRIBUTED' &&
      t.headOk(head) &&
      (!answer || (data.index === answer.index && data.seed === answer.seed));
    if (!ok) t.fail(`receipt.${n}.contribution`);
  }
  for (const own of seeds) if (e.contributions[own.index]?.seed !== own.seed) t.fail(`seed.${own.index}`);
}
