/**
 * The cursor codec of the Store's list methods (docs/data-model.md): a page's last key, sealed so that
 * a cursor is good for the list it came from only.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@pyb/core';
import { type Access, cursorAttributes, type Item, indexKeyOf } from './layout';

/**
 * The key cursors are sealed with when the store is given none: it keeps cursors opaque and bound to
 * their list, but it is no secret (docs/deploy.md, CURSOR_KEY).
 */
export const DEFAULT_CURSOR_KEY: Uint8Array = new TextEncoder().encode('pyb-cursor/1');

/** HMAC-SHA256 over the list (table, index, partition) and the payload: a cursor is good for its list only. */
const seal = (secret: Uint8Array, access: Access, payload: string): string =>
  createHmac('sha256', secret)
    .update(`${access.table}\n${access.index ?? ''}\n${access.partition}\n${payload}`)
    .digest('base64url');

/** A page's last key as an opaque cursor: base64url(JSON) '.' HMAC. */
export const encodeCursor = (key: Item, access: Access, secret: Uint8Array = DEFAULT_CURSOR_KEY): string => {
  const payload = Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
  return `${payload}.${seal(secret, access, payload)}`;
};

const cursorInvalid = () =>
  new DomainError('INVALID', 'CURSOR_INVALID', 'the cursor is not valid for this list');

/**
 * A cursor is only good for the list it came from: its seal must verify for that list (an altered,
 * forged or borrowed cursor does not), and its key must be exactly the key attributes of that query,
 * of the right types, in its partition (and prefix). Anything else is CURSOR_INVALID, never another
 * partition's key and never a request DynamoDB would refuse.
 */
export function decodeCursor(cursor: string, access: Access, secret: Uint8Array = DEFAULT_CURSOR_KEY): Item {
  const [payload = '', mac = '', ...rest] = cursor.split('.');
  const expected = seal(secret, access, payload);
  if (
    rest.length > 0 ||
    mac.length !== expected.length ||
    !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))
  )
    throw cursorInvalid();
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw cursorInvalid();
  }
  if (!key || typeof key !== 'object' || Array.isArray(key)) throw cursorInvalid();
  const item = key as Item;
  const wanted = cursorAttributes(access);
  const names = Object.keys(item);
  if (names.length !== Object.keys(wanted).length) throw cursorInvalid();
  for (const name of names) {
    const type = wanted[name];
    const value = item[name];
    if (type === 'S' && (typeof value !== 'string' || value.length === 0 || value.length > 1024))
      throw cursorInvalid();
    if (type === 'N' && !Number.isSafeInteger(value)) throw cursorInvalid();
    if (type === undefined) throw cursorInvalid();
  }
  const index = indexKeyOf(access);
  if (item[index.partition] !== access.partition) throw cursorInvalid();
  if (access.sortPrefix !== undefined && !String(item[index.sort]).startsWith(access.sortPrefix))
    throw cursorInvalid();
  return item;
}
