/**
 * Refusals say what to do (the developers' guide: "a message that says what to do"), in the words a new
 * user met them in (issue 23): a bet on a round that is over points to the next round; a debit from a
 * wallet that does not exist says the first credit creates it. Codes stay as they were.
 */
import { type Core, DomainError } from '@pyb/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../support/actors';
import { fundedPlayer, tableWithRound } from '../support/fixture';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
beforeAll(async () => {
  stack = await createTestStack('refusals');
  core = stack.core;
});
afterAll(() => stack?.cleanup());

const op = operator();

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('refusals that say what to do', () => {
  it('a bet on a round that is over: ROUND_NOT_OPEN, bet on the next round (the call that opens one)', async () => {
    const { table, round } = await tableWithRound(core, op, { name: 'R', variant: 'mini' });
    const playerId = await fundedPlayer(core, op, { prefix: 'rm', amount: 100_000 });
    await core.voidRound(op, { roundId: round.roundId, reason: 'TECHNICAL_FAULT' });
    const error = await refusal(
      core.placeBet(op, {
        roundId: round.roundId,
        playerId,
        bets: [{ type: 'BANKER', amount: 1_000 }],
        idempotencyKey: 'late',
      }),
    );
    expect(error.code).toBe('ROUND_NOT_OPEN');
    expect(error.message).toContain(`bet on the table's next round (POST /v1/tables/${table.tableId}/rounds`);
  });

  it('a debit from a wallet that does not exist: WALLET_NOT_FOUND, the first credit creates it', async () => {
    const error = await refusal(
      core.walletTransaction(op, {
        playerId: 'never-credited',
        type: 'DEBIT',
        amount: 1_000,
        currency: 'EUR',
        idempotencyKey: 'debit-first',
        reference: 'cash-out',
      }),
    );
    expect(error.code).toBe('WALLET_NOT_FOUND');
    expect(error.message).toBe(
      'wallet never-credited not found: a hosted wallet is created by its first credit (POST /v1/wallets/never-credited/transactions with "type": "CREDIT")',
    );
  });
});
