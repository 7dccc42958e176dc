/** The table page's words for a locked table and for the void reasons (web/src/table/table-facts.ts). */

import { VOID_REASONS as API_VOID_REASONS } from '@pyb/contracts';
import { describe, expect, it } from 'vitest';
import { BURN_REASONS, lockWords, type TableLock, VOID_REASONS } from '../src/table/table-facts';

const lock: TableLock = {
  source: 'RANDOMNESS',
  cause: 'BEACON_INVALID',
  detail: 'round 123 did not verify under the network key',
  phase: 'RESOLVE',
  shoeId: 'shoe_1',
  roundId: 'rnd_9',
  at: '2026-12-01T08:00:00.000Z',
  seq: 0,
};

describe('a locked table in words', () => {
  it('says what failed, where and when, and that an admin must clear it', () => {
    const words = lockWords(lock, 'tbl_1');
    expect(words).toContain('The randomness failed at this table while dealing a round (rnd_9)');
    expect(words).toContain('2026-12-01T08:00:00.000Z');
    expect(words).toContain('the randomness beacon round did not verify');
    expect(words).toContain(lock.detail);
    expect(words).toContain('until an admin clears the lock');
    expect(words).toContain('POST /v1/tables/tbl_1/unlock');
  });

  it('names a key-service failure at shoe opening, and shows a cause it has no words for as its code', () => {
    const words = lockWords(
      { ...lock, source: 'KEY_SERVICE', cause: 'SOMETHING_NEW', phase: 'OPEN_SHOE', roundId: undefined },
      'tbl_1',
    );
    expect(words).toContain('The key service failed at this table while opening a shoe (shoe_1)');
    expect(words).toContain('SOMETHING_NEW');
  });
});

describe('void reasons', () => {
  it('has words for exactly the reasons the API takes; the burn only for the dealer errors', () => {
    expect(Object.keys(VOID_REASONS).sort()).toEqual([...API_VOID_REASONS].sort());
    expect(BURN_REASONS).toEqual(['EXPOSED_CARD', 'EXTRA_CARDS']);
  });
});
