/**
 * DynamoDB's rules for one item, as the in-memory Store applies them (store.ts): how a value is
 * stored and sized, how a condition is evaluated, and which update paths DynamoDB refuses.
 */
import type { Condition, Expect } from '@pyb/core';
import type { Item } from '@pyb/store-dynamodb/layout';

/** A request DynamoDB would refuse (its ValidationException): a bug or a limit, never retried. */
export class StoreRequestError extends Error {
  override readonly name = 'StoreRequestError';
}

/** UTF-8 length without encoding (a lone surrogate counts 3, as TextEncoder's U+FFFD does). */
const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');
/** DynamoDB orders string keys by their UTF-8 bytes (not by UTF-16 code units as `<` does). */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const isMap = (v: unknown): v is Item =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

/** A value as DynamoDB keeps it: a deep copy without undefined (maps and lists), no non-finite numbers. */
export function stored(value: unknown): unknown {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new StoreRequestError(`${value} is not a number DynamoDB can store`);
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(stored);
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (isMap(value)) {
    const out: Item = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = stored(v);
    return out;
  }
  return value;
}

export const copy = <T>(value: T): T => structuredClone(value);

/** DynamoDB's item size: attribute names and values (UTF-8), numbers ~1 byte per 2 digits + 1. */
function valueBytes(value: unknown): number {
  if (typeof value === 'string') return utf8Bytes(value);
  if (typeof value === 'number')
    return Math.ceil(String(Math.abs(value)).replace(/[.e+-]/g, '').length / 2) + 1;
  if (typeof value === 'boolean' || value === null) return 1;
  if (value instanceof Uint8Array) return value.length;
  if (Array.isArray(value)) return 3 + value.reduce((s: number, v) => s + 1 + valueBytes(v), 0);
  if (isMap(value))
    return 3 + Object.entries(value).reduce((s, [k, v]) => s + 1 + utf8Bytes(k) + valueBytes(v), 0);
  return 0;
}
export const itemBytes = (item: Item): number =>
  Object.entries(item).reduce((s, [k, v]) => s + utf8Bytes(k) + valueBytes(v), 0);

/** The value at a dotted path (undefined when any step is missing or not a map). */
export function read(item: Item | undefined, path: string): unknown {
  let at: unknown = item;
  for (const segment of path.split('.')) {
    if (!isMap(at)) return undefined;
    at = at[segment];
  }
  return at;
}

const sameType = (a: unknown, b: unknown) => typeof a === typeof b && a !== null && b !== null;

function holds(item: Item | undefined, path: string, c: Condition): boolean {
  const v = read(item, path);
  if (c === null) return v === undefined;
  if (c === 'exists') return v !== undefined;
  if (typeof c !== 'object') return sameType(v, c) && v === c;
  if ('in' in c) return c.in.some((x) => sameType(v, x) && v === x);
  if (typeof v !== 'number') return false; // a comparison with another type is false, not an error
  if ('lt' in c) return v < c.lt;
  if ('lte' in c) return v <= c.lte;
  return v >= c.gte;
}

export function checkCondition(path: string, c: Condition): void {
  if (path.split('.').some((s) => s.length === 0))
    throw new StoreRequestError(`invalid document path '${path}'`);
  if (c !== null && typeof c === 'object') {
    const operands = 'in' in c ? c.in : Object.values(c);
    if ('in' in c && (c.in.length === 0 || c.in.length > 100))
      throw new StoreRequestError('IN takes 1-100 operands');
    if (operands.some((x) => x === undefined || (typeof x === 'number' && !Number.isFinite(x))))
      throw new StoreRequestError(`condition on ${path} has an invalid operand`);
  }
}

export const matches = (item: Item | undefined, expect: Expect | undefined): boolean =>
  Object.entries(expect ?? {}).every(([path, c]) => holds(item, path, c));

/** The map holding the last segment of a dotted path: every map above it must exist (else DynamoDB refuses). */
function parentOf(item: Item, path: string): { parent: Item; last: string } {
  const segments = path.split('.');
  const last = segments.pop()!;
  let at: unknown = item;
  for (const s of segments) {
    at = isMap(at) ? at[s] : undefined;
    if (!isMap(at)) throw new StoreRequestError(`the document path ${path} is invalid for update`);
  }
  return { parent: at as Item, last };
}

/** SET of a dotted path. */
export function assign(item: Item, path: string, value: unknown): void {
  const { parent, last } = parentOf(item, path);
  parent[last] = value;
}

/** REMOVE of a dotted path: a missing attribute is fine, a missing map above it is not. */
export function remove(item: Item, path: string): void {
  const { parent, last } = parentOf(item, path);
  delete parent[last];
}

/** Key attributes cannot be updated; two paths of one update may not overlap (DynamoDB's rules). */
export function checkPaths(paths: readonly string[]): void {
  for (const p of paths) {
    if (p.split('.').some((s) => s.length === 0)) throw new StoreRequestError(`invalid document path '${p}'`);
    const top = p.split('.')[0]!;
    if (top === 'pk' || top === 'sk')
      throw new StoreRequestError(`cannot update attribute ${top}: it is part of the key`);
  }
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const [a, b] = [paths[i]!, paths[j]!];
      if (a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`))
        throw new StoreRequestError(`two document paths overlap: ${a} and ${b}`);
    }
  }
}
