/**
 * Appending to a shoe's audit chain. One chain per shoe, genesis = the shoe's commitment; each round's
 * events follow the previous round's (docs/data-model.md). An event is written by a conditional put of
 * sequence number head+1 in the same transaction as the state change it records, so it is appended
 * exactly once and never overwritten; a concurrent append makes the transaction fail and retry.
 */
import { canonicalJson, eventHash } from '@pyb/fairness';
import type { AuditEvent, AuditEventType, AuditRecord, Store, WriteOp } from '../shared';

/** JSON round trip: drops undefined fields, so the hashed object equals what the checker parses back. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export function chainRecord(
  prev: { seq: number; hash: string } | { genesis: string },
  shoeId: string,
  type: AuditEventType,
  roundId: string | undefined,
  at: string,
  data: Record<string, unknown>,
): AuditRecord {
  const seq = 'genesis' in prev ? 0 : prev.seq + 1;
  const prevHash = 'genesis' in prev ? prev.genesis : prev.hash;
  const event: AuditEvent = plain({ seq, type, shoeId, ...(roundId && { roundId }), at, data });
  return {
    shoeId,
    seq,
    type,
    ...(roundId && { roundId }),
    event: canonicalJson(event),
    prevHash,
    hash: eventHash(prevHash, event),
  };
}

/** The latest of ISO times (the verifier wants times that never go back along the chain). */
export function latest(...times: string[]): string {
  return times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

/** The `at` of a stored event (undefined if unreadable). */
export function eventAt(record: AuditRecord): string | undefined {
  try {
    const at = (JSON.parse(record.event) as { at?: unknown }).at;
    return typeof at === 'string' ? at : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The next event after the current head (read strongly consistent). Its time is never before the
 * head's: two functions' clocks may differ by a few milliseconds, and the chain's times must not go back.
 */
export async function nextAudit(
  store: Store,
  shoeId: string,
  type: AuditEventType,
  roundId: string | undefined,
  at: string,
  data: Record<string, unknown>,
): Promise<AuditRecord> {
  const head = await store.auditHead(shoeId);
  if (!head) throw new Error(`shoe ${shoeId} has no audit chain`);
  const previous = eventAt(head);
  return chainRecord(head, shoeId, type, roundId, previous ? latest(at, previous) : at, data);
}

export const putAudit = (record: AuditRecord): WriteOp => ({
  kind: 'put',
  entity: 'audit',
  key: { shoeId: record.shoeId, seq: record.seq },
  item: record,
});
