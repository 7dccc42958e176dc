/**
 * Audit-trail primitives (docs/architecture.md "Audit trail primitives"). Pure: the DynamoDB store
 * writes the chain with these, and the verifier re-walks it with the same functions.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, utf8ToBytes } from './bytes';
import { canonicalJson } from './canonical';

const NEWLINE = Uint8Array.of(0x0a);

/** hex(SHA-256(utf8(prevHash) ‖ 0x0A ‖ utf8(RFC 8785 JSON of event))). */
export function eventHash(prevHash: string, event: unknown): string {
  return bytesToHex(sha256(concatBytes(utf8ToBytes(prevHash), NEWLINE, utf8ToBytes(canonicalJson(event)))));
}

/**
 * hex(SHA-256(RFC 8785 JSON of the records sorted by `id`)). Ids compare by UTF-16 code units (the
 * order RFC 8785 uses for keys), so every implementation sorts alike; duplicate ids are refused
 * because their relative order would be ambiguous.
 */
export function digest(records: readonly { readonly id: string }[]): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(sortedRecords(records)))));
}

/** The records sorted by `id` (UTF-16 code units); duplicate ids refused. */
export function sortedRecords<R extends { readonly id: string }>(records: readonly R[]): R[] {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.id === sorted[i - 1]!.id) throw new TypeError(`duplicate record id ${sorted[i]!.id}`);
  }
  return sorted;
}

export interface ChainedEvent {
  hash: string;
  prevHash: string;
  event: unknown;
}

export type ChainBreak =
  /** `prevHash` is not the hash of the event before it (or the genesis for the first). */
  | 'LINK'
  /** `hash` is not eventHash(prevHash, event): the event or its hash was altered. */
  | 'HASH';

export type ChainVerdict =
  | { ok: true; length: number; head: string }
  | { ok: false; index: number; reason: ChainBreak; expected: string; actual: string; detail: string };

/**
 * Walks a chain from `genesis` and reports the first break. `head` is the last hash (the genesis for
 * an empty chain), which is what gets signed at shoe close.
 */
export function verifyChain(events: readonly ChainedEvent[], genesis: string): ChainVerdict {
  let prev = genesis;
  for (let index = 0; index < events.length; index++) {
    const { hash, prevHash, event } = events[index]!;
    if (prevHash !== prev) {
      return {
        ok: false,
        index,
        reason: 'LINK',
        expected: prev,
        actual: prevHash,
        detail: `event ${index}: prevHash ${prevHash} does not link to ${index === 0 ? 'the genesis' : `event ${index - 1}`} (${prev})`,
      };
    }
    let computed: string;
    try {
      computed = eventHash(prevHash, event);
    } catch (error) {
      return {
        ok: false,
        index,
        reason: 'HASH',
        expected: '',
        actual: hash,
        detail: `event ${index}: ${(error as Error).message}`,
      };
    }
    if (hash !== computed) {
      return {
        ok: false,
        index,
        reason: 'HASH',
        expected: computed,
        actual: hash,
        detail: `event ${index}: recorded hash ${hash} but the event hashes to ${computed}`,
      };
    }
    prev = hash;
  }
  return { ok: true, length: events.length, head: prev };
}
