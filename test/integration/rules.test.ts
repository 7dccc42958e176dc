/**
 * Table rules, tenancy and round life cycle through the use cases, on DynamoDB Local.
 */
import { DECKS_MESSAGE } from '@pyb/contracts';
import type { DomainError } from '@pyb/core';
import { getScoreboard, getSeats } from '@pyb/core/use-cases';
import { noteDigest } from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { fundedPlayer, tableWithRound } from '../support/fixture';
import { codeOf, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('rules');
});
afterAll(() => stack?.cleanup());

const op = operator('op-1');
const stranger = operator('op-2');

function freshRound(config: Record<string, unknown> = {}, clientSeed?: string) {
  // Presets keep their seats and decks: another shape is a custom table.
  const variant = 'seats' in config || 'decks' in config ? 'custom' : 'mini';
  return tableWithRound(stack.core, op, { name: 'T', variant, config }, clientSeed);
}

const player = (amount?: number, currency?: string) =>
  fundedPlayer(stack.core, op, { prefix: 'pl', amount, currency });

describe('tenancy', () => {
  it("treats another operator's resources as not found, and regulators as read-only", async () => {
    const { table, shoe, round } = await freshRound();
    const p = await player();
    await stack.core.placeBet(op, {
      roundId: round.roundId,
      playerId: p,
      bets: [{ type: 'PLAYER', amount: 1_000 }],
      idempotencyKey: 'k',
    });

    expect(await codeOf(stack.core.getTable(stranger, { tableId: table.tableId }))).toBe('TABLE_NOT_FOUND');
    expect(await codeOf(getSeats(stack, stranger, { tableId: table.tableId }))).toBe('TABLE_NOT_FOUND');
    expect(await codeOf(getScoreboard(stack, stranger, { tableId: table.tableId }))).toBe('TABLE_NOT_FOUND');
    expect(await codeOf(getSeats(stack, op, { tableId: 'tbl/../x' }))).toBe('INVALID_INPUT');
    expect(await codeOf(stack.core.getShoe(stranger, { shoeId: shoe.shoeId }))).toBe('SHOE_NOT_FOUND');
    expect(await codeOf(stack.core.getRound(stranger, { roundId: round.roundId }))).toBe('ROUND_NOT_FOUND');
    expect(await codeOf(stack.core.resolveRound(stranger, { roundId: round.roundId }))).toBe(
      'ROUND_NOT_FOUND',
    );
    expect(
      await codeOf(
        stack.core.placeBet(stranger, {
          roundId: round.roundId,
          playerId: p,
          bets: [{ type: 'TIE', amount: 100 }],
          idempotencyKey: 'x',
        }),
      ),
    ).toBe('ROUND_NOT_FOUND');
    expect(await codeOf(stack.core.getWallet(stranger, { playerId: p }))).toBe('WALLET_NOT_FOUND');
    expect(await codeOf(stack.core.checkShoeChain(stranger, { shoeId: shoe.shoeId }))).toBe('SHOE_NOT_FOUND');

    const inspector = regulator('op-1');
    expect((await getSeats(stack, inspector, { tableId: table.tableId })).tableId).toBe(table.tableId);
    expect((await stack.core.getRound(inspector, { roundId: round.roundId })).positions).toHaveLength(1);
    expect((await stack.core.getLedger(inspector, { operatorId: 'op-1', playerId: p })).entries).toHaveLength(
      2,
    );
    expect(await codeOf(stack.core.resolveRound(inspector, { roundId: round.roundId }))).toBe('READ_ONLY');
    expect(await codeOf(stack.core.getRound(regulator('op-9'), { roundId: round.roundId }))).toBe(
      'ROUND_NOT_FOUND',
    );
    expect(await codeOf(stack.core.getLedger(regulator('op-9'), { operatorId: 'op-1', playerId: p }))).toBe(
      'WALLET_NOT_FOUND',
    );
  });
});

describe('bets', () => {
  it('enforces the table rules on the whole position, across calls', async () => {
    const { round } = await freshRound();
    const p = await player(500_100);
    const bet = (type: 'PLAYER' | 'BANKER' | 'TIE' | 'PLAYER_PAIR', amount: number, key: string) =>
      stack.core.placeBet(op, {
        roundId: round.roundId,
        playerId: p,
        bets: [{ type, amount }],
        idempotencyKey: key,
      });
    await bet('PLAYER', 1_000, 'a');
    expect(await codeOf(bet('BANKER', 1_000, 'b'))).toBe('BET_PLAYER_AND_BANKER');
    expect(await codeOf(bet('PLAYER', 499_500, 'c'))).toBe('BET_ABOVE_MAX'); // mini max 500 000 in total
    expect(await codeOf(bet('TIE', 50, 'd'))).toBe('BET_BELOW_MIN');
    expect(await codeOf(bet('PLAYER_PAIR', 100, 'e'))).toBe('BET_SIDE_DISABLED');
    expect(await codeOf(bet('PLAYER', 1.5, 'f'))).toBe('BET_AMOUNT_INVALID');
    const raised = await bet('PLAYER', 499_000, 'g');
    expect(raised.position.stake).toBe(500_000);
    const withTie = await bet('TIE', 100, 'h');
    expect(withTie.position.bets.map((b) => [b.type, b.amount])).toEqual([
      ['PLAYER', 500_000],
      ['TIE', 100],
    ]);
    expect((await stack.core.getWallet(op, { playerId: p })).balance).toBe(0);
    expect(await codeOf(bet('TIE', 100, 'i'))).toBe('INSUFFICIENT_FUNDS');
  });

  it('refuses bets once betting is closed, and a wallet in another currency', async () => {
    const { round } = await freshRound();
    const p = await player();
    const usd = await player(100_000, 'USD');
    expect(
      await codeOf(
        stack.core.placeBet(op, {
          roundId: round.roundId,
          playerId: usd,
          bets: [{ type: 'TIE', amount: 100 }],
          idempotencyKey: 'u',
        }),
      ),
    ).toBe('CURRENCY_MISMATCH');
    expect(
      await codeOf(
        stack.core.placeBet(op, {
          roundId: round.roundId,
          playerId: 'nobody',
          bets: [{ type: 'TIE', amount: 100 }],
          idempotencyKey: 'n',
        }),
      ),
    ).toBe('WALLET_NOT_FOUND');
    await stack.core.resolveRound(op, { roundId: round.roundId });
    expect(
      await codeOf(
        stack.core.placeBet(op, {
          roundId: round.roundId,
          playerId: p,
          bets: [{ type: 'TIE', amount: 100 }],
          idempotencyKey: 'late',
        }),
      ),
    ).toBe('ROUND_NOT_OPEN');
    expect((await stack.core.getWallet(op, { playerId: p })).balance).toBe(100_000);
  });
});

describe('rounds and shoes', () => {
  it('keeps one round in play per table, even when opened concurrently', async () => {
    const table = await stack.core.createTable(admin(), { name: 'T', variant: 'midi' });
    expect(await codeOf(stack.core.openRound(op, { tableId: table.tableId }))).toBe('NO_SHOE_OPEN');
    const shoe = await stack.core.openShoe(admin(), { tableId: table.tableId });
    expect(await codeOf(stack.core.openShoe(admin(), { tableId: table.tableId }))).toBe('SHOE_ALREADY_OPEN');
    const opened = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        stack.core.openRound(op, { tableId: table.tableId, clientSeed: 'seed-a' }),
      ),
    );
    const won = opened.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(await codeOf(stack.core.closeShoe(admin(), { shoeId: shoe.shoeId }))).toBe('ROUND_IN_PLAY');
    const first = (won[0] as PromiseFulfilledResult<{ roundId: string }>).value;
    await stack.core.resolveRound(op, { roundId: first.roundId });
    // The client seed was fixed by the first round.
    expect(await codeOf(stack.core.openRound(op, { tableId: table.tableId, clientSeed: 'seed-b' }))).toBe(
      'CLIENT_SEED_ALREADY_FIXED',
    );
    const second = await stack.core.openRound(op, { tableId: table.tableId, clientSeed: 'seed-a' });
    expect(second.coup).toBe(2);
    expect((await stack.core.getShoe(op, { shoeId: shoe.shoeId })).clientSeed).toBe('seed-a');
  });

  it('voids a round: every stake refunded exactly once, with the reason in the audit trail', async () => {
    const { shoe, round } = await freshRound({ commission: { mode: 'DEFERRED' } });
    const players = [await player(10_000), await player(10_000)];
    await stack.core.placeBet(op, {
      roundId: round.roundId,
      playerId: players[0]!,
      bets: [{ type: 'BANKER', amount: 5_000 }],
      idempotencyKey: 'a',
    });
    await stack.core.placeBet(op, {
      roundId: round.roundId,
      playerId: players[1]!,
      bets: [
        { type: 'TIE', amount: 800 },
        { type: 'PLAYER', amount: 600 },
      ],
      idempotencyKey: 'b',
    });
    expect((await stack.core.getWallet(op, { playerId: players[0]! })).reserved).toBe(250);
    expect(
      await codeOf(stack.core.voidRound(op, { roundId: round.roundId, reason: 'NOT_A_REASON' as never })),
    ).toBe('VOID_REASON_INVALID');
    const [a, b] = await Promise.all([
      stack
        .coreWith({})
        .voidRound(op, { roundId: round.roundId, reason: 'MISDEAL', note: 'two cards stuck together' }),
      stack
        .coreWith({})
        .voidRound(op, { roundId: round.roundId, reason: 'MISDEAL', note: 'two cards stuck together' }),
    ]);
    expect(a.status).toBe('VOIDED');
    expect(b.status).toBe('VOIDED');
    expect(a.positions.map((p) => p.status)).toEqual(['REFUNDED', 'REFUNDED']);
    for (const p of players) {
      const wallet = await stack.core.getWallet(op, { playerId: p });
      expect([wallet.balance, wallet.reserved, wallet.available]).toEqual([10_000, 0, 10_000]);
      const refunds = (await wholeLedger(stack.core, op, p)).filter((e) => e.kind === 'REFUND');
      expect(refunds).toHaveLength(1);
    }
    expect(await codeOf(stack.core.resolveRound(op, { roundId: round.roundId }))).toBe('ROUND_VOIDED');
    const audit = await stack.store.listAudit(shoe.shoeId);
    const voided = audit.find((e) => e.type === 'ROUND_VOIDED')!;
    const data = JSON.parse(voided.event).data;
    expect(data).toMatchObject({ reason: 'MISDEAL', positions: 2 });
    // Nor the note (free text): only its digest, keyed by the shoe's salt (F5).
    const salt = (await stack.store.get('shoe', { shoeId: shoe.shoeId }))!.digestSalt!;
    expect([data.note, data.noteDigest]).toEqual([undefined, noteDigest(salt, 'two cards stuck together')]);
    // No amount in clear in the chain (it is public in the shoe's proof): the digest commits to them.
    expect(JSON.parse(voided.event).data.refunded).toBeUndefined();
    expect((await stack.core.checkShoeChain(op, { shoeId: shoe.shoeId })).problems).toEqual([]);
    // The table is free again; a dealt round cannot be voided.
    const next = await stack.core.openRound(op, { tableId: a.tableId });
    await stack.core.resolveRound(op, { roundId: next.roundId });
    expect(await codeOf(stack.core.voidRound(op, { roundId: next.roundId, reason: 'EXPOSED_CARD' }))).toBe(
      'ROUND_ALREADY_DEALT',
    );
  });

  it('validates table configurations', async () => {
    expect(
      await codeOf(stack.core.createTable(admin(), { name: 'T', variant: 'mini', config: { seats: 20 } })),
    ).toBe('TABLE_CONFIG_INVALID');
    expect(
      await codeOf(
        stack.core.createTable(admin(), {
          name: 'T',
          variant: 'mini',
          config: { afterCutCard: 'ONE_MORE_COUP', cutCard: { minCardsBehind: 7 } },
        }),
      ),
    ).toBe('TABLE_CONFIG_INVALID');
    const table = await stack.core.createTable(admin(), {
      name: '  Full 1 ',
      variant: 'full',
      config: { commission: { rateBps: 400 } },
    });
    const read = await stack.core.getTable(op, { tableId: table.tableId });
    expect(read).toMatchObject({
      name: 'Full 1',
      config: { seats: 14, decks: 8, commission: { rateBps: 400, mode: 'AT_PAYMENT' } },
    });
    // A preset keeps its seats and decks (seeds 000, 004); another shape is a custom table, named.
    expect(
      await codeOf(stack.core.createTable(admin(), { name: 'T', variant: 'mini', config: { decks: 1 } })),
    ).toBe('TABLE_CONFIG_INVALID');
    const custom = await stack.core.createTable(admin(), {
      name: ' Doce ',
      variant: 'custom',
      config: { seats: 12, decks: 8 },
    });
    expect(custom.config).toMatchObject({ variant: 'custom', name: 'Doce', seats: 12, decks: 8 });
    expect(await codeOf(stack.core.createTable(regulator('op-1'), { name: 'T', variant: 'mini' }))).toBe(
      'READ_ONLY',
    );
  });

  it('6 or 8 decks (003:16, 004:8): fewer only on a core built for tests (testShoes)', async () => {
    const production = stack.coreWith({ testShoes: false });
    const short = (core: typeof production, decks: number) =>
      core.createTable(admin(), { name: `${decks} decks`, variant: 'custom', config: { decks } });
    for (const decks of [1, 2, 7]) {
      const refused = await short(production, decks).then(
        () => undefined,
        (e: unknown) => e as DomainError,
      );
      expect(refused).toMatchObject({
        code: 'TABLE_CONFIG_INVALID',
        details: { issues: [{ path: 'decks', message: DECKS_MESSAGE }] },
      });
    }
    for (const decks of [6, 8]) expect((await short(production, decks)).config.decks).toBe(decks);
    expect((await short(stack.core, 1)).config.decks).toBe(1);
  });
});

describe('free text', () => {
  it('refuses a void note with a lone surrogate before writing anything, and the shoe still closes', async () => {
    const { shoe, round } = await freshRound();
    const playerId = await player();
    await stack.core.placeBet(op, {
      roundId: round.roundId,
      playerId,
      bets: [{ type: 'PLAYER', amount: 1000 }],
      idempotencyKey: `wedge-${playerId}`,
    });
    // What RFC 8785 cannot serialise (ROUND_VOIDED hashes the note) is refused up front.
    const note = `dealer said \ud800 oops`;
    expect(await codeOf(stack.core.voidRound(op, { roundId: round.roundId, reason: 'MISDEAL', note }))).toBe(
      'INVALID_INPUT',
    );
    expect((await stack.core.getRound(op, { roundId: round.roundId })).status).toBe('OPEN');
    for (const bad of ['tab\there', 'rtl \u202e', 'nul \u0000']) {
      expect(
        await codeOf(stack.core.voidRound(op, { roundId: round.roundId, reason: 'MISDEAL', note: bad })),
      ).toBe('INVALID_INPUT');
    }
    const voided = await stack.core.voidRound(op, {
      roundId: round.roundId,
      reason: 'MISDEAL',
      note: 'ñandú 🂡',
    });
    expect(voided.status).toBe('VOIDED');
    expect(
      (await stack.core.closeShoe(admin(), { shoeId: shoe.shoeId, reason: 'DEALER_ERROR' })).status,
    ).toBe('CLOSED');
    expect((await stack.core.checkShoeChain(admin(), { shoeId: shoe.shoeId })).ok).toBe(true);
  });

  it('takes any client seed of 1-256 UTF-8 bytes of clean text, as docs/provably-fair.md §5 says', async () => {
    const { round } = await freshRound({}, 'ñandú 🂡');
    expect(round.status).toBe('OPEN');
    for (const seed of ['', 'x'.repeat(257), 'ñ'.repeat(129), 'bell \u0007', `half \udc00`]) {
      const table = await stack.core.createTable(admin(), { name: 'T', variant: 'mini' });
      await stack.core.openShoe(admin(), { tableId: table.tableId });
      expect(await codeOf(stack.core.openRound(op, { tableId: table.tableId, clientSeed: seed }))).toBe(
        'CLIENT_SEED_INVALID',
      );
    }
  });

  it('refuses a reference or a currency the API refuses', async () => {
    const credit = (over: Record<string, unknown>) =>
      stack.core.walletTransaction(op, {
        playerId: 'hygiene',
        type: 'CREDIT',
        amount: 1,
        currency: 'EUR',
        idempotencyKey: `h-${JSON.stringify(over)}`,
        ...over,
      });
    expect(await codeOf(credit({ reference: 'a\nb' }))).toBe('INVALID_INPUT');
    expect(await codeOf(credit({ currency: 'ZZZ' }))).toBe('INVALID_INPUT');
    expect(
      await codeOf(
        stack.core.createTable(admin(), { name: 'x', variant: 'mini', config: { currency: 'ZZZ' } }),
      ),
    ).toBe('TABLE_CONFIG_INVALID');
  });
});
