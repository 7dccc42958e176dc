/**
 * The platform's client against the reference operator wallet, over real HTTP, with each fault
 * injected: what the client reports (OK / REFUSED / UNKNOWN) and what the operator's books hold.
 */
import { SeamlessOk } from '@pyb/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SeamlessWalletClient } from '../src/client';
import { ReferenceWallet } from '../src/reference-wallet';

let wallet: ReferenceWallet;
/** A deadline no answered call meets, even on a loaded machine: only the wallet's faults decide. */
const ANSWERED_MS = 60_000;
let client: SeamlessWalletClient;
/**
 * A short deadline, only for the calls that meet a fault which never answers in time (a held
 * connection, an answer 2 s late): the wallet runs in this process, so its later timer never fires first.
 */
let impatient: SeamlessWalletClient;
let n = 0;

const refs = () => {
  n += 1;
  return { roundId: `rnd_t${n}`, tableId: 'tbl_t', betRef: `rnd_t${n}:ana:bet-${n}` };
};
const txId = (prefix: 'dbt' | 'crd' | 'rbk', tag: string) => `${prefix}_${tag.padEnd(16, '0')}`;
const debitOf = (tag: string, amount = 1000) => ({
  txId: txId('dbt', tag),
  playerId: 'ana',
  currency: 'EUR',
  amount,
  ...refs(),
});
const sum = () => wallet.books().reduce((total, e) => total + e.amount, 0);

beforeAll(async () => {
  wallet = await ReferenceWallet.start({ secrets: ['s3cret'], holdMs: 3000 });
  wallet.fund('ana', 'EUR', 100_000);
  client = new SeamlessWalletClient({
    baseUrl: wallet.url,
    secrets: { current: 's3cret' },
    timeoutMs: ANSWERED_MS,
  });
  impatient = new SeamlessWalletClient({
    baseUrl: wallet.url,
    secrets: { current: 's3cret' },
    timeoutMs: 1500,
  });
});
afterEach(() => wallet.clearFaults());
afterAll(() => wallet.close());

describe('seamless client against the reference wallet (real HTTP)', () => {
  it('a debit is booked once: a repeat of its txId gets the first answer and books nothing', async () => {
    const before = wallet.books().length;
    const debit = debitOf('once');
    const first = await client.debit(debit);
    const again = await client.debit(debit);
    expect(first).toMatchObject({ outcome: 'OK' });
    expect(again).toEqual(first);
    expect(wallet.books().length).toBe(before + 1);
    expect(SeamlessOk().parse((first as { answer: unknown }).answer).txId).toBe(debit.txId);
  });

  it('a txId reused with another body is refused TX_MISMATCH', async () => {
    const debit = debitOf('mismatch');
    await client.debit(debit);
    expect(await client.debit({ ...debit, amount: 999 })).toMatchObject({
      outcome: 'REFUSED',
      code: 'TX_MISMATCH',
    });
  });

  it('insufficient funds is a definite refusal: nothing booked, and the refusal stays for that txId', async () => {
    const before = sum();
    const debit = debitOf('broke', 10_000_000);
    expect(await client.debit(debit)).toMatchObject({ outcome: 'REFUSED', code: 'INSUFFICIENT_FUNDS' });
    wallet.inject({ operation: 'debit', fault: { kind: 'insufficientFunds' } });
    expect(await client.debit(debitOf('forced'))).toMatchObject({
      outcome: 'REFUSED',
      code: 'INSUFFICIENT_FUNDS',
    });
    expect(sum()).toBe(before);
    // The fault never rewrites the answer of a debit already booked: a repeat still gets its OK.
    const booked = debitOf('bookedthenbroke');
    const first = await client.debit(booked);
    wallet.inject({ operation: 'debit', fault: { kind: 'insufficientFunds' } });
    expect(await client.debit(booked)).toEqual(first);
  });

  it('a timeout whose debit was booked is UNKNOWN; its rollback gives the money back (applied: true)', async () => {
    const start = wallet.balanceOf('ana');
    wallet.inject({ operation: 'debit', fault: { kind: 'timeout', apply: true } });
    const debit = debitOf('lostanswer');
    expect(await impatient.debit(debit)).toMatchObject({ outcome: 'UNKNOWN' });
    expect(wallet.balanceOf('ana')).toBe((start ?? 0) - 1000);
    const rollback = await client.rollback({
      ...debit,
      txId: txId('rbk', 'lostanswer'),
      debitTxId: debit.txId,
    });
    expect(rollback).toMatchObject({ outcome: 'OK', answer: { applied: true, balance: start } });
    expect(wallet.balanceOf('ana')).toBe(start);
  });

  it('a timeout whose request was lost: the rollback books nothing, and the debit arriving late is refused', async () => {
    const start = wallet.balanceOf('ana');
    wallet.inject({ operation: 'debit', fault: { kind: 'timeout', apply: false } });
    const debit = debitOf('lostrequest');
    expect(await impatient.debit(debit)).toMatchObject({ outcome: 'UNKNOWN' });
    const rollback = await client.rollback({
      ...debit,
      txId: txId('rbk', 'lostrequest'),
      debitTxId: debit.txId,
    });
    expect(rollback).toMatchObject({ outcome: 'OK', answer: { applied: false } });
    // The same debit, delayed in the network, arrives after its rollback: refused, never applied.
    expect(await client.debit(debit)).toMatchObject({ outcome: 'REFUSED', code: 'DEBIT_ROLLED_BACK' });
    expect(wallet.balanceOf('ana')).toBe(start);
  });

  it('a rollback for a player (or currency) the wallet does not hold is 200 applied: false, never refused', async () => {
    const before = sum();
    // The debit was refused UNKNOWN_PLAYER (or never arrived): the rollback has nothing to give back.
    const refused = { ...debitOf('nobodyrefused'), playerId: 'nobody' };
    expect(await client.debit(refused)).toMatchObject({ outcome: 'REFUSED', code: 'UNKNOWN_PLAYER' });
    const rollback = { ...refused, txId: txId('rbk', 'nobodyrefused'), debitTxId: refused.txId };
    const first = await client.rollback(rollback);
    expect(first).toMatchObject({
      outcome: 'OK',
      answer: { txId: rollback.txId, playerId: 'nobody', currency: 'EUR', balance: 0, applied: false },
    });
    expect(await client.rollback(rollback)).toEqual(first);
    // A debit that never arrived, for a player the wallet opens later: refused after its rollback.
    const lost = { ...debitOf('nobodylost'), playerId: 'latecomer' };
    expect(
      await client.rollback({ ...lost, txId: txId('rbk', 'nobodylost'), debitTxId: lost.txId }),
    ).toMatchObject({ outcome: 'OK', answer: { applied: false } });
    wallet.fund('latecomer', 'EUR', 5000);
    expect(await client.debit(lost)).toMatchObject({ outcome: 'REFUSED', code: 'DEBIT_ROLLED_BACK' });
    expect(wallet.balanceOf('latecomer')).toBe(5000);
    // In a currency the player's account is not in: the same.
    const usd = { ...debitOf('anausd'), currency: 'USD' };
    expect(await client.rollback({ ...usd, txId: txId('rbk', 'anausd'), debitTxId: usd.txId })).toMatchObject(
      { outcome: 'OK', answer: { currency: 'USD', balance: 0, applied: false } },
    );
    expect(sum()).toBe(before);
  });

  it('a 5xx is UNKNOWN, booked or not; a rollback settles both', async () => {
    const start = wallet.balanceOf('ana');
    for (const apply of [true, false]) {
      wallet.inject({ operation: 'debit', fault: { kind: 'status', status: 503, apply } });
      const debit = debitOf(`fivexx${apply}`);
      expect(await client.debit(debit)).toMatchObject({ outcome: 'UNKNOWN', reason: 'status 503' });
      expect(
        await client.rollback({ ...debit, txId: txId('rbk', `fivexx${apply}`), debitTxId: debit.txId }),
      ).toMatchObject({
        outcome: 'OK',
        answer: { applied: apply },
      });
    }
    expect(wallet.balanceOf('ana')).toBe(start);
  });

  it('a slow answer within the deadline is OK; past it, UNKNOWN (though booked)', async () => {
    wallet.inject({ operation: 'debit', fault: { kind: 'slow', delayMs: 50 } });
    expect(await client.debit(debitOf('slowok'))).toMatchObject({ outcome: 'OK' });
    wallet.inject({ operation: 'debit', fault: { kind: 'slow', delayMs: 2000 } });
    const late = debitOf('slowlate');
    const before = wallet.balanceOf('ana') ?? 0;
    expect(await impatient.debit(late)).toMatchObject({ outcome: 'UNKNOWN' });
    expect(wallet.balanceOf('ana')).toBe(before - 1000);
  });

  it('a request delivered twice to the books is booked once', async () => {
    const before = wallet.books().length;
    wallet.inject({ fault: { kind: 'duplicate' }, times: 2 });
    const debit = debitOf('dup');
    expect(await client.debit(debit)).toMatchObject({ outcome: 'OK' });
    expect(
      await client.credit({ ...debit, txId: txId('crd', 'dup'), kind: 'PAYOUT', amount: 1950 }),
    ).toMatchObject({ outcome: 'OK' });
    expect(
      wallet
        .books()
        .slice(before)
        .map((e) => e.amount),
    ).toEqual([-1000, 1950]);
  });

  it('an answer signed with a wrong secret is UNKNOWN (not trusted), though the wallet booked it', async () => {
    wallet.inject({ operation: 'credit', fault: { kind: 'badSignature' } });
    const debit = debitOf('badsig');
    const credit = { ...debit, txId: txId('crd', 'badsig'), kind: 'REFUND' as const };
    expect(await client.credit(credit)).toMatchObject({ outcome: 'UNKNOWN', reason: 'answer BAD_SIGNATURE' });
    // Delivered again (same txId): now trusted, and booked once.
    expect(await client.credit(credit)).toMatchObject({ outcome: 'OK' });
    expect(wallet.books().filter((e) => e.txId === credit.txId)).toHaveLength(1);
  });

  it('the wallet refuses a request signed with a wrong secret or too old (401), booking nothing', async () => {
    const before = wallet.books().length;
    const stranger = new SeamlessWalletClient({
      baseUrl: wallet.url,
      secrets: { current: 'guess' },
      timeoutMs: ANSWERED_MS,
    });
    expect(await stranger.debit(debitOf('stranger'))).toMatchObject({
      outcome: 'UNKNOWN',
      reason: 'status 401',
    });
    const late = new SeamlessWalletClient({
      baseUrl: wallet.url,
      secrets: { current: 's3cret' },
      now: () => Math.floor(Date.now() / 1000) - 3600,
      timeoutMs: ANSWERED_MS,
    });
    expect(await late.debit(debitOf('replayed'))).toMatchObject({ outcome: 'UNKNOWN', reason: 'status 401' });
    expect(wallet.books().length).toBe(before);
    expect(wallet.received.at(-1)).toMatchObject({ status: 401 });
  });

  it('a secret rotation without downtime: both secrets valid while the platform moves to the new one', async () => {
    wallet.rotate(['n3w', 's3cret']);
    const oldSide = new SeamlessWalletClient({
      baseUrl: wallet.url,
      secrets: { current: 's3cret' },
      timeoutMs: ANSWERED_MS,
    });
    const newSide = new SeamlessWalletClient({
      baseUrl: wallet.url,
      secrets: { current: 'n3w', previous: 's3cret' },
      timeoutMs: ANSWERED_MS,
    });
    expect(await oldSide.balance({ playerId: 'ana', currency: 'EUR' })).toMatchObject({ outcome: 'UNKNOWN' }); // answers now signed with n3w
    expect(await newSide.balance({ playerId: 'ana', currency: 'EUR' })).toMatchObject({ outcome: 'OK' });
    expect(await newSide.debit(debitOf('rot'))).toMatchObject({ outcome: 'OK' });
    wallet.rotate(['n3w']);
    expect(await newSide.debit(debitOf('rot2'))).toMatchObject({ outcome: 'OK' });
    expect(await oldSide.debit(debitOf('rot3'))).toMatchObject({ outcome: 'UNKNOWN', reason: 'status 401' });
    wallet.rotate(['s3cret']);
  });

  it('credits are delivered after the wallet recovers, each booked once', async () => {
    const debit = debitOf('recover');
    const credit = { ...debit, txId: txId('crd', 'recover'), kind: 'PAYOUT' as const, amount: 2000 };
    wallet.inject({ operation: 'credit', fault: { kind: 'status', status: 500, apply: false } });
    wallet.inject({ operation: 'credit', fault: { kind: 'timeout', apply: true } });
    wallet.inject({ operation: 'credit', fault: { kind: 'status', status: 502, apply: false } });
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      // The second attempt meets the held connection.
      const result = await (attempt === 1 ? impatient : client).credit(credit);
      outcomes.push(result.outcome);
      if (result.outcome === 'OK') break;
    }
    expect(outcomes).toEqual(['UNKNOWN', 'UNKNOWN', 'UNKNOWN', 'OK']);
    expect(
      wallet
        .books()
        .filter((e) => e.txId === credit.txId)
        .map((e) => e.amount),
    ).toEqual([2000]);
  });
});
