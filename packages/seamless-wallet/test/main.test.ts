import { describe, expect, it } from 'vitest';
import { SeamlessWalletClient } from '../src/client';
import { DEV_WALLET_SECRET, startReferenceWallet, usage } from '../src/main';

describe('./scripts/reference-wallet', () => {
  it('starts with its players funded, answers signed calls, and prints how to drive it', async () => {
    const wallet = await startReferenceWallet({
      WALLET_PORT: '0',
      WALLET_PLAYERS: 'ana,bea',
      WALLET_FUNDS: '2500',
    });
    try {
      const client = new SeamlessWalletClient({
        baseUrl: wallet.url,
        secrets: { current: DEV_WALLET_SECRET },
        timeoutMs: 60_000, // a deadline no answered call meets on a loaded machine
      });
      expect(await client.balance({ playerId: 'bea', currency: 'EUR' })).toMatchObject({
        outcome: 'OK',
        answer: { balance: 2500 },
      });
      expect(wallet.balanceOf('player-1')).toBeUndefined();
      const text = usage(wallet, DEV_WALLET_SECRET);
      expect(text).toContain(wallet.url);
      const books = await fetch(`${wallet.url.replace(/\/pyb$/, '')}/_control/books`);
      expect(await books.json()).toMatchObject({ balances: { ana: { currency: 'EUR', balance: 2500 } } });
      const control = wallet.url.replace(/\/pyb$/, '/_control');
      const bad = await fetch(`${control}/faults`, { method: 'POST', body: '{"fault":{"kind":"meteor"}}' });
      expect(bad.status).toBe(400);
      const good = await fetch(`${control}/faults`, {
        method: 'POST',
        body: '{"operation":"debit","fault":{"kind":"insufficientFunds"}}',
      });
      expect(good.status).toBe(200);
      const refused = await client.debit({
        txId: 'dbt_mainmainmainmain',
        playerId: 'ana',
        currency: 'EUR',
        amount: 1,
        roundId: 'rnd_m',
        tableId: 'tbl_m',
        betRef: 'rnd_m:ana:1',
      });
      expect(refused).toMatchObject({ outcome: 'REFUSED', code: 'INSUFFICIENT_FUNDS' });
      expect((await fetch(`${control}/fund`, { method: 'POST', body: '{"playerId":"ana"}' })).status).toBe(
        400,
      );
    } finally {
      await wallet.close();
    }
  });

  it('refuses funds that are not minor units', async () => {
    await expect(startReferenceWallet({ WALLET_PORT: '0', WALLET_FUNDS: '12.5' })).rejects.toThrow(
      /WALLET_FUNDS/,
    );
  });
});
