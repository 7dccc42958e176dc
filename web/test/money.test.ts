/** Money on the pages (web/src/lib/money.ts) and refusals in words (web/src/lib/problems.ts). */

import { PROBLEM_CODES, type ProblemCode } from '@pyb/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/lib/api';
import { decimalOf, formatMoney, minorDigits } from '../src/lib/money';
import { describeError, WORDS } from '../src/lib/problems';

describe('money from minor units', () => {
  it('uses the currency’s own number of decimals, exactly', () => {
    expect(minorDigits('EUR')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('KWD')).toBe(3);
    expect(decimalOf(123_456, 'EUR')).toBe('1234.56');
    expect(decimalOf(5, 'EUR')).toBe('0.05');
    expect(decimalOf(-5, 'EUR')).toBe('-0.05');
    expect(decimalOf(123_456, 'JPY')).toBe('123456');
    expect(decimalOf(1, 'KWD')).toBe('0.001');
    // Beyond float precision: still exact, as a decimal string.
    expect(decimalOf(9_007_199_254_740_991, 'EUR')).toBe('90071992547409.91');
    expect(() => decimalOf(1.5, 'EUR')).toThrow(RangeError);
  });

  it('formats with Intl in the given locale', () => {
    expect(formatMoney(123_456, 'EUR', 'en-GB')).toBe('€1,234.56');
    expect(formatMoney(123_456, 'EUR', 'es-ES')).toBe('1234,56\u00a0€');
    expect(formatMoney(-1_000, 'EUR', 'en-GB')).toBe('-€10.00');
    expect(formatMoney(500, 'JPY', 'en-GB')).toBe('JP¥500');
    expect(formatMoney(9_007_199_254_740_991, 'EUR', 'en-GB')).toBe('€90,071,992,547,409.91');
  });
});

describe('refusals in words', () => {
  const problem = (code: ProblemCode, details?: Record<string, unknown>) =>
    new ApiError(422, code, 'detail text', {
      type: `urn:pyb:problem:${code}`,
      title: 'Unprocessable Content',
      status: 422,
      detail: 'detail text',
      instance: '/v1/x',
      code,
      requestId: 'r',
      ...(details ? { details } : {}),
    });

  it('says a limit in the table’s money', () => {
    const context = { limits: { TIE: { min: 100, max: 62_500 } }, currency: 'EUR' };
    expect(describeError(problem('BET_ABOVE_MAX', { betType: 'TIE' }), context)).toMatch(
      /^Empate: the bet is above the table maximum of .*625[.,]00/,
    );
    expect(describeError(problem('BET_BELOW_MIN', { betType: 'TIE' }), context)).toMatch(
      /below the table minimum/,
    );
    expect(describeError(problem('BET_BELOW_MIN'))).toBe('The bet is below the table minimum.');
  });

  it('maps stable codes, and shows an unknown code with its detail', () => {
    expect(describeError(problem('BET_PLAYER_AND_BANKER'))).toBe(
      'Punto and Banca cannot both be bet in the same coup.',
    );
    // A code a newer server may send, not in this build's registry.
    const unknown = 'SOMETHING_NEW' as ProblemCode;
    expect(describeError(problem(unknown))).toBe('detail text (SOMETHING_NEW)');
    expect(describeError(new Error('plain'))).toBe('plain');
  });
});

describe('the problem registry in words', () => {
  it('WORDS has a sentence for every code of the registry, and no code the registry lacks', () => {
    const page = Object.keys(WORDS).filter((code) => code !== 'NETWORK');
    expect(page.sort()).toEqual([...PROBLEM_CODES].sort());
    for (const code of PROBLEM_CODES) {
      const text = describeError(new ApiError(400, code, 'detail of the API'));
      expect(text, code).toBe(WORDS[code]);
      expect(text, code).not.toContain(code);
    }
  });
});
