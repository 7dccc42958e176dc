/**
 * The pyb-shoe/3 byte stream (docs/provably-fair.md §15.2): HMAC-SHA256 blocks keyed by the server
 * seed over a message of length-prefixed fields and a block counter,
 *
 *   msg(k)   = be32(|F1|) ‖ F1 ‖ be32(|F2|) ‖ F2 ‖ … ‖ be32(|Fm|) ‖ Fm ‖ be32(k)
 *   block(k) = HMAC-SHA256(key = serverSeed, msg(k))
 *
 * read as big-endian u32 draws, in order, never reused — the same reading as pyb-shoe/2's ShoeStream
 * (stream.ts), with a different message: every field is length-prefixed, so no two field lists give
 * the same message.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { SERVER_SEED_BYTES, type U32Source } from './stream';

const MAX_BLOCKS = 2 ** 32;

/** The exact HMAC message of block `counter` (exported so tests and the docs can show it). */
export function fieldsMessage(fields: readonly Uint8Array[], counter: number): Uint8Array {
  if (!Number.isInteger(counter) || counter < 0 || counter >= MAX_BLOCKS) {
    throw new RangeError(`bad block counter ${counter}`);
  }
  const length = fields.reduce((sum, f) => sum + 4 + f.length, 4);
  const msg = new Uint8Array(length);
  const view = new DataView(msg.buffer);
  let at = 0;
  for (const field of fields) {
    view.setUint32(at, field.length, false);
    msg.set(field, at + 4);
    at += 4 + field.length;
  }
  view.setUint32(at, counter, false);
  return msg;
}

export class FieldStream implements U32Source {
  private readonly key: Uint8Array;
  private readonly fields: readonly Uint8Array[];
  private block = new Uint8Array(0);
  private at = 0;
  private counter = 0;
  /** Bytes handed out so far (every draw takes a whole u32). */
  bytesUsed = 0;

  constructor(serverSeed: Uint8Array, fields: readonly Uint8Array[]) {
    if (!(serverSeed instanceof Uint8Array) || serverSeed.length !== SERVER_SEED_BYTES) {
      throw new RangeError(`server seed must be ${SERVER_SEED_BYTES} bytes`);
    }
    this.key = serverSeed;
    this.fields = fields.map((f) => Uint8Array.from(f));
  }

  /** Blocks computed so far. */
  get blocks(): number {
    return this.counter;
  }

  nextU32(): number {
    let x = 0;
    for (let i = 0; i < 4; i++) {
      if (this.at === this.block.length) this.refill();
      x = x * 256 + this.block[this.at++]!;
    }
    this.bytesUsed += 4;
    return x;
  }

  private refill(): void {
    this.block = hmac(sha256, this.key, fieldsMessage(this.fields, this.counter++));
    this.at = 0;
  }
}
