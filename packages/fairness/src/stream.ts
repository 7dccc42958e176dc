/**
 * The deterministic byte stream every random choice of a shoe is drawn from (docs/provably-fair.md §3):
 *
 *   block(k) = HMAC-SHA256(key = serverSeed, msg = be32(|c|) ‖ c ‖ be32(|s|) ‖ s ‖ be32(k))
 *   stream   = block(0) ‖ block(1) ‖ block(2) ‖ …
 *
 * with c = UTF-8 of the client seed and s = UTF-8 of the shoe id. Length prefixes make the message
 * unambiguous (no client seed / shoe id pair can collide with another), the counter makes every block
 * independent. Bytes are consumed strictly in order and never reused.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from './bytes';
import { CLIENT_SEED_MAX_BYTES, LONE_SURROGATE } from './text';

export const SERVER_SEED_BYTES = 32;
export const MAX_CLIENT_SEED_BYTES = CLIENT_SEED_MAX_BYTES;
export const MAX_SHOE_ID_BYTES = 128;

/** UTF-8 of a text input, refusing what would encode ambiguously (lone surrogates) or is out of bounds. */
export function textInput(name: string, text: string, maxBytes: number): Uint8Array {
  if (typeof text !== 'string') throw new TypeError(`${name} must be a string`);
  if (LONE_SURROGATE.test(text)) throw new RangeError(`${name} is not well-formed Unicode`);
  const bytes = utf8ToBytes(text);
  if (bytes.length < 1 || bytes.length > maxBytes) {
    throw new RangeError(`${name} must be 1..${maxBytes} UTF-8 bytes (got ${bytes.length})`);
  }
  return bytes;
}

const be32 = (view: DataView, at: number, value: number) => view.setUint32(at, value, false);

/** The exact HMAC message of block `counter` (exported so tests and the docs can show it). */
export function blockMessage(clientSeed: string, shoeId: string, counter: number): Uint8Array {
  const c = textInput('client seed', clientSeed, MAX_CLIENT_SEED_BYTES);
  const s = textInput('shoe id', shoeId, MAX_SHOE_ID_BYTES);
  const msg = new Uint8Array(4 + c.length + 4 + s.length + 4);
  const view = new DataView(msg.buffer);
  be32(view, 0, c.length);
  msg.set(c, 4);
  be32(view, 4 + c.length, s.length);
  msg.set(s, 8 + c.length);
  be32(view, msg.length - 4, counter);
  return msg;
}

/**
 * u32 draws read in order from HMAC-SHA256(key = serverSeed, message(k)) blocks, k = 0, 1, …: the one
 * reading of both schemes' streams (ShoeStream here, pyb-shoe/3's FieldStream); each says its message.
 */
export abstract class HmacBlockStream implements U32Source {
  private readonly key: Uint8Array;
  private block = new Uint8Array(0);
  private at = 0;
  private counter = 0;
  /** Bytes handed out so far (a multiple of 4: every draw takes a whole u32). */
  bytesUsed = 0;

  constructor(serverSeed: Uint8Array) {
    if (!(serverSeed instanceof Uint8Array) || serverSeed.length !== SERVER_SEED_BYTES) {
      throw new RangeError(`server seed must be ${SERVER_SEED_BYTES} bytes`);
    }
    this.key = serverSeed;
  }

  /** The HMAC message of block `counter`. */
  protected abstract message(counter: number): Uint8Array;

  /** Blocks computed so far. */
  get blocks(): number {
    return this.counter;
  }

  /** The next 4 stream bytes as a big-endian unsigned 32-bit integer. */
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
    this.block = hmac(sha256, this.key, this.message(this.counter++));
    this.at = 0;
  }
}

export class ShoeStream extends HmacBlockStream {
  private readonly msg: Uint8Array;
  private readonly view: DataView;

  constructor(serverSeed: Uint8Array, clientSeed: string, shoeId: string) {
    super(serverSeed);
    this.msg = blockMessage(clientSeed, shoeId, 0);
    this.view = new DataView(this.msg.buffer);
  }

  protected message(counter: number): Uint8Array {
    be32(this.view, this.msg.length - 4, counter);
    return this.msg;
  }
}

/** A source of u32 draws; ShoeStream in production, anything scripted in tests. */
export interface U32Source {
  nextU32(): number;
}

const TWO_POW_32 = 2 ** 32;

/**
 * A uniform integer in [0, n) by rejection: draw x (u32); accept when x < 2^32 − (2^32 mod n), return
 * x mod n. Every residue then has exactly floor(2^32 / n) accepted preimages, so there is no modulo
 * bias. For n ≤ 416 a draw is rejected with probability < 1e-7.
 */
export function uniformInt(source: U32Source, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > TWO_POW_32) throw new RangeError(`bad range ${n}`);
  const limit = TWO_POW_32 - (TWO_POW_32 % n);
  for (;;) {
    const x = source.nextU32();
    if (x < limit) return x % n;
  }
}
