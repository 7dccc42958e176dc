import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digest, eventHash, verifyChain } from '../src/index';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function chain(genesis: string, events: unknown[]) {
  let prev = genesis;
  return events.map((event) => {
    const hash = eventHash(prev, event);
    const link = { hash, prevHash: prev, event };
    prev = hash;
    return link;
  });
}

describe('eventHash', () => {
  it('is SHA-256 over prevHash, a newline and the RFC 8785 JSON of the event', () => {
    const prev = 'ab'.repeat(32);
    // Keys out of order and a number with a canonical form different from its literal.
    const event = { type: 'BET_PLACED', amount: 1.0e2, at: '2024-01-01T00:00:00Z', meta: { z: 1, a: 'é' } };
    const expected = sha(
      `${prev}\n{"amount":100,"at":"2024-01-01T00:00:00Z","meta":{"a":"é","z":1},"type":"BET_PLACED"}`,
    );
    expect(eventHash(prev, event)).toBe(expected);
  });

  it('changes with the previous hash and with any field of the event', () => {
    const base = eventHash('00', { a: 1 });
    expect(eventHash('01', { a: 1 })).not.toBe(base);
    expect(eventHash('00', { a: 2 })).not.toBe(base);
    expect(eventHash('00', { a: 1, b: null })).not.toBe(base);
  });

  it('refuses values with no JSON form', () => {
    expect(() => eventHash('00', undefined)).toThrow(TypeError);
  });
});

describe('digest', () => {
  it('hashes the records sorted by id, whatever order they arrive in', () => {
    const a = { id: 'pos#2', amount: 5 };
    const b = { id: 'pos#10', amount: 7 };
    const expected = sha('[{"amount":7,"id":"pos#10"},{"amount":5,"id":"pos#2"}]');
    expect(digest([a, b])).toBe(expected);
    expect(digest([b, a])).toBe(expected);
  });

  it('of no records is the hash of []', () => {
    expect(digest([])).toBe(sha('[]'));
  });

  it('refuses duplicate ids', () => {
    expect(() => digest([{ id: 'x' }, { id: 'x' }])).toThrow(/duplicate/);
  });
});

describe('verifyChain', () => {
  const genesis = 'c0'.repeat(32);
  const events = [{ type: 'SHOE_OPENED' }, { type: 'ROUND_OPENED', n: 1 }, { type: 'ROUND_SETTLED', n: 1 }];

  it('accepts an intact chain and returns its head', () => {
    const links = chain(genesis, events);
    expect(verifyChain(links, genesis)).toEqual({ ok: true, length: 3, head: links[2]!.hash });
    expect(verifyChain([], genesis)).toEqual({ ok: true, length: 0, head: genesis });
  });

  it('reports an altered event as a HASH break at its index', () => {
    const links = chain(genesis, events);
    links[1] = { ...links[1]!, event: { type: 'ROUND_OPENED', n: 2 } };
    expect(verifyChain(links, genesis)).toMatchObject({ ok: false, index: 1, reason: 'HASH' });
  });

  it('reports a removed event as a LINK break where the gap is', () => {
    const links = chain(genesis, events);
    links.splice(1, 1);
    expect(verifyChain(links, genesis)).toMatchObject({ ok: false, index: 1, reason: 'LINK' });
  });

  it('reports an event with no JSON form as a HASH break instead of throwing', () => {
    const links = chain(genesis, events);
    links[2] = { ...links[2]!, event: undefined };
    expect(verifyChain(links, genesis)).toMatchObject({ ok: false, index: 2, reason: 'HASH' });
  });

  it('reports a chain started from another genesis', () => {
    const links = chain('ff'.repeat(32), events);
    expect(verifyChain(links, genesis)).toMatchObject({
      ok: false,
      index: 0,
      reason: 'LINK',
      expected: genesis,
    });
  });

  it('catches a rewritten suffix whose hashes were recomputed, by its link to the kept prefix', () => {
    const links = chain(genesis, events);
    const forged = chain('ee'.repeat(32), [{ type: 'ROUND_OPENED', n: 9 }, ...events.slice(2)]);
    expect(verifyChain([links[0]!, ...forged], genesis)).toMatchObject({
      ok: false,
      index: 1,
      reason: 'LINK',
    });
  });
});
