/** The API's currency list is ISO 4217's (as the currency-codes package publishes it), XTS and XXX aside. */
import { ISO_4217, isCurrency } from '@pyb/contracts';
import cc from 'currency-codes';
import { describe, expect, it } from 'vitest';

describe('ISO 4217', () => {
  it('lists every active code but XTS (testing) and XXX (no currency)', () => {
    const iso = cc.codes().filter((code) => code !== 'XTS' && code !== 'XXX');
    expect([...ISO_4217].sort()).toEqual([...iso].sort());
  });

  it('takes real codes only', () => {
    expect(['EUR', 'USD', 'GBP', 'JPY', 'MXN'].every(isCurrency)).toBe(true);
    expect(['ZZZ', 'eur', 'EURO', '', 'XTS', 'XXX', 42].some(isCurrency)).toBe(false);
  });
});
