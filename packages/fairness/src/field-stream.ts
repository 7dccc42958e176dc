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
import { HmacBlockStream } from './stream';

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

export class FieldStream extends HmacBlockStream {
  private readonly fields: readonly Uint8Array[];

  constructor(serverSeed: Uint8Array, fields: readonly Uint8Array[]) {
    super(serverSeed);
    this.fields = fields.map((f) => Uint8Array.from(f));
  }

  protected message(counter: number): Uint8Array {
    return fieldsMessage(this.fields, counter);
  }
}
