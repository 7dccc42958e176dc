/**
 * Model-based test of the money (fast-check commands): random sequences of credits, debits, bets and
 * raises, rounds opened, resolved and voided, players leaving, shoes closed — each step one action or
 * several at once (concurrent, including duplicates of one request), retries of earlier calls with
 * their idempotency key, calls whose process dies mid-way (before or after a write lands), and
 * transient transaction conflicts injected into the store. After every step the money invariants
 * are checked against what is stored (test/model/invariants.ts); at the end every round is finished
 * and every shoe closed, and then every stake must be settled or refunded.
 *
 * Fast tier: the in-memory Store, many runs. DynamoDB tier: DynamoDB Local, a few bounded runs.
 * A failure prints the seed and the shrunk steps; `MODEL_SEED=<seed> MODEL_PATH=<path>` replays it.
 */
import type { Core, PlaceBetInput, Store, WalletTransactionInput } from '@pyb/core';
import { DomainError } from '@pyb/core';
import type { Bet, BetType } from '@pyb/engine';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { backend, createTestStack, type TestStack } from '../support/stack';
import { FaultyStore, InjectedCrash } from './faults';
import { checkInvariants, type World } from './invariants';

const memory = backend() === 'memory';
const RUNS = Number(process.env.MODEL_RUNS ?? (memory ? 40 : 4));
const STEPS = memory ? 40 : 16;
const PLAYERS = 4;
const KEYS = 24;
/**
 * The runs' seed: fixed, so that every run of the suite tries the same cases and CI's answer does not
 * depend on chance; MODEL_SEED=<n> tries others, MODEL_SEED=random lets fast-check draw one (printed
 * with a failure).
 */
const SEED = process.env.MODEL_SEED ?? '20261202';

type MoneyAction =
  | { t: 'credit' | 'debit'; player: number; amount: number; key: number }
  | { t: 'bet'; table: number; player: number; bets: Bet[]; key: number };
type GameAction =
  | { t: 'open' | 'resolve' | 'close'; table: number }
  | { t: 'void'; table: number }
  | { t: 'leave'; table: number; player: number };
type Action =
  | MoneyAction
  | GameAction
  | { t: 'retry'; n: number }
  | { t: 'crash'; action: MoneyAction | GameAction; after: number; when: 'before-write' | 'after-write' };

// ---- arbitraries -----------------------------------------------------------------------------------

const player = fc.integer({ min: 0, max: PLAYERS - 1 });
const table = fc.integer({ min: 0, max: 1 });
const key = fc.integer({ min: 0, max: KEYS - 1 });
const MIN: Partial<Record<BetType, number>> = {
  PLAYER: 500,
  BANKER: 500,
  TIE: 100,
  PLAYER_PAIR: 100,
  BANKER_PAIR: 100,
};
const bet = fc
  .record({
    type: fc.constantFrom<BetType>('PLAYER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR'),
    units: fc.integer({ min: 1, max: 6 }),
  })
  .map(({ type, units }): Bet => ({ type, amount: MIN[type]! * units }));
const bets = fc.uniqueArray(bet, { minLength: 1, maxLength: 3, selector: (b) => b.type });

const money: fc.Arbitrary<MoneyAction> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('credit' as const),
      player,
      amount: fc.integer({ min: 100, max: 20_000 }),
      key,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('debit' as const),
      player,
      amount: fc.integer({ min: 100, max: 15_000 }),
      key,
    }),
  },
  { weight: 6, arbitrary: fc.record({ t: fc.constant('bet' as const), table, player, bets, key }) },
);
const game: fc.Arbitrary<GameAction> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('open' as const), table }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('resolve' as const), table }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('void' as const), table }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('leave' as const), table, player }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('close' as const), table }) },
);
const single: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: money },
  { weight: 4, arbitrary: game },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('retry' as const), n: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('crash' as const),
      action: fc.oneof(money, game),
      after: fc.integer({ min: 0, max: 3 }),
      when: fc.constantFrom('before-write' as const, 'after-write' as const),
    }),
  },
);
/** Several actions at once; duplicating one is a client sending the same request twice. */
const concurrent: fc.Arbitrary<Action[]> = fc.oneof(
  fc.array(single, { minLength: 2, maxLength: 4 }),
  fc.tuple(single, fc.integer({ min: 2, max: 4 })).map(([a, n]) => Array.from({ length: n }, () => a)),
);

// ---- the system under test -------------------------------------------------------------------------

interface Call {
  playerId: string;
  key: string;
  input: WalletTransactionInput | PlaceBetInput;
  kind: 'wallet' | 'bet';
}

interface Real extends World {
  faulty: FaultyStore;
  coreOn(store: Store): Core;
  stack: TestStack;
  calls: Call[];
}

const show = (a: Action): string => JSON.stringify(a);

class Step implements fc.AsyncCommand<object, Real> {
  constructor(readonly actions: readonly Action[]) {}
  check = () => true;
  async run(_m: object, real: Real): Promise<void> {
    await Promise.all(this.actions.map((a) => perform(real, a)));
    await checkInvariants(real);
  }
  toString = () =>
    this.actions.length === 1 ? show(this.actions[0]!) : `all(${this.actions.map(show).join(', ')})`;
}

const step: fc.Arbitrary<fc.AsyncCommand<object, Real>> = fc.oneof(
  { weight: 4, arbitrary: single.map((a) => new Step([a])) },
  { weight: 1, arbitrary: concurrent.map((as) => new Step(as)) },
);

/** An error a call may end with: a refusal (DomainError) — or the injected crash, for crashed calls. */
function expected(error: unknown, crashed: boolean): void {
  if (crashed && error instanceof InjectedCrash) return;
  if (error instanceof DomainError && error.code !== 'CONCURRENT_UPDATE') return;
  throw error;
}

/** What the runs did (printed with MODEL_STATS=1): outcomes per action. */
const stats = new Map<string, number>();
const count = (name: string) => stats.set(name, (stats.get(name) ?? 0) + 1);

async function perform(real: Real, action: Action, core = real.core, crashed = false): Promise<void> {
  try {
    await act(real, action, core);
    count(`${action.t} ok`);
  } catch (error) {
    expected(error, crashed);
    count(`${action.t} ${(error as DomainError).code ?? (error as Error).name}`);
  }
}

async function act(real: Real, action: Action, core: Core): Promise<void> {
  switch (action.t) {
    case 'credit':
    case 'debit': {
      const input: WalletTransactionInput = {
        playerId: real.players[action.player]!,
        type: action.t === 'credit' ? 'CREDIT' : 'DEBIT',
        amount: action.amount,
        currency: 'EUR',
        idempotencyKey: `k${action.key}`,
      };
      return call(real, core, { playerId: input.playerId, key: input.idempotencyKey, input, kind: 'wallet' });
    }
    case 'bet': {
      const tableId = real.tables[action.table]!.tableId;
      const stored = await real.stack.store.get('table', { tableId });
      // Betting on a round that is not open any more is part of the game too (ROUND_NOT_OPEN).
      const roundId = stored?.openRoundId ?? real.rounds.at(-1);
      if (!roundId) return;
      const input: PlaceBetInput = {
        roundId,
        playerId: real.players[action.player]!,
        bets: action.bets,
        idempotencyKey: `k${action.key}`,
      };
      return call(real, core, { playerId: input.playerId, key: input.idempotencyKey, input, kind: 'bet' });
    }
    case 'retry': {
      const earlier = real.calls[action.n % Math.max(1, real.calls.length)];
      if (earlier) await call(real, core, earlier, false);
      return;
    }
    case 'open': {
      const round = await core.openRound(real.op, { tableId: real.tables[action.table]!.tableId });
      real.rounds.push(round.roundId);
      return;
    }
    case 'resolve':
    case 'void': {
      const stored = await real.stack.store.get('table', { tableId: real.tables[action.table]!.tableId });
      if (!stored?.openRoundId) return;
      if (action.t === 'resolve') await core.resolveRound(real.op, { roundId: stored.openRoundId });
      else await core.voidRound(real.op, { roundId: stored.openRoundId, reason: 'EXPOSED_CARD' });
      return;
    }
    case 'leave':
      await core.leaveTable(real.op, {
        tableId: real.tables[action.table]!.tableId,
        playerId: real.players[action.player]!,
      });
      return;
    case 'close': {
      const tableId = real.tables[action.table]!.tableId;
      const stored = await real.stack.store.get('table', { tableId });
      if (stored?.currentShoeId) {
        real.shoes.add(stored.currentShoeId);
        await core.closeShoe(real.admin, { shoeId: stored.currentShoeId, reason: 'END_OF_SESSION' });
      }
      const shoe = await core.openShoe(real.admin, { tableId });
      real.shoes.add(shoe.shoeId);
      return;
    }
    case 'crash': {
      // The process dies at its `after`-th write (before it lands, or after it landed but before the
      // answer); the client does not know what happened and retries later (a retry step, or the end).
      const dying = real.faulty.dying(action.after, action.when);
      await perform(real, action.action, real.coreOn(dying), true);
      return;
    }
  }
}

async function call(real: Real, core: Core, c: Call, record = true): Promise<void> {
  if (record) real.calls.push(c);
  const result =
    c.kind === 'wallet'
      ? await core.walletTransaction(real.op, c.input as WalletTransactionInput)
      : await core.placeBet(real.op, c.input as PlaceBetInput);
  const id = `${c.playerId}:${c.key}`;
  const list = real.successes.get(id) ?? [];
  list.push({
    body: JSON.stringify({ kind: c.kind, ...c.input }),
    seq: result.entry.seq,
    hash: JSON.stringify(result.entry),
    replayed: result.replayed,
  });
  real.successes.set(id, list);
}

// ---- the runs --------------------------------------------------------------------------------------

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('model');
});
afterAll(() => stack?.cleanup());

let run = 0;

async function setup(conflictRate: number, seed: number): Promise<Real> {
  const n = run++;
  const op = operator(`op-m${n}`);
  const adm = admin(`op-m${n}`);
  const faulty = new FaultyStore(stack.store, conflictRate, seed);
  const coreOn = (store: Store) => stack.coreWith({ store });
  const core = coreOn(faulty);
  const plain = stack.coreWith({});
  const tables = [];
  const shoes = [];
  for (const [i, mode] of (['AT_PAYMENT', 'DEFERRED'] as const).entries()) {
    const t = await plain.createTable(adm, {
      name: `model ${i}`,
      // One deck (a preset keeps its decks: a custom table, named).
      variant: 'custom',
      config: { decks: 1, pairBets: true, commission: { rateBps: 500, mode } },
    });
    tables.push({ tableId: t.tableId });
    shoes.push((await plain.openShoe(adm, { tableId: t.tableId })).shoeId);
  }
  // Funded players and a round open on each table, so that the first steps already move money.
  const players = Array.from({ length: PLAYERS }, (_, i) => `p${i}`);
  for (const playerId of players) {
    await plain.walletTransaction(op, {
      playerId,
      type: 'CREDIT',
      amount: 30_000,
      currency: 'EUR',
      idempotencyKey: 'fund',
    });
  }
  const rounds = [];
  for (const t of tables) rounds.push((await plain.openRound(op, { tableId: t.tableId })).roundId);
  return {
    op,
    admin: adm,
    core,
    coreOn,
    faulty,
    stack,
    store: stack.store,
    players,
    tables,
    shoes: new Set(shoes),
    rounds,
    calls: [],
    successes: new Map(),
  };
}

/**
 * Resolves the round; but a crash between "no va más" and its time-stamp, retried only once the
 * named beacon round is out, has locked the table (TIME_STAMP_TOO_LATE): that coup is never dealt,
 * so the round is voided (every stake refunded) and the table unlocked, as docs/time-stamps.md says.
 */
async function resolveOrVoid(real: Real, tableId: string, roundId: string): Promise<void> {
  try {
    await real.core.resolveRound(real.op, { roundId });
  } catch (error) {
    const table = (await real.store.get('table', { tableId }))!;
    if (
      !(error instanceof DomainError) ||
      error.code !== 'TABLE_LOCKED' ||
      table.lock?.source !== 'TIME_STAMP'
    )
      throw error;
    await real.core.voidRound(real.admin, { roundId, reason: 'TECHNICAL_FAULT' });
    await real.core.unlockTable(real.admin, { tableId, reason: 'time-stamp authorities answer again' });
  }
}

/** Finish what is in play (resolve or void every open round, close every shoe); then check again. */
async function finish(real: Real): Promise<void> {
  for (const t of real.tables) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const stored = (await real.store.get('table', { tableId: t.tableId }))!;
      if (stored.openRoundId) {
        const round = (await real.store.get('round', { roundId: stored.openRoundId }))!;
        if (round.status === 'VOIDING')
          await real.core.voidRound(real.op, { roundId: round.roundId, reason: 'EXPOSED_CARD' });
        else await resolveOrVoid(real, t.tableId, round.roundId);
      }
      const after = (await real.store.get('table', { tableId: t.tableId }))!;
      if (after.currentShoeId)
        await real.core.closeShoe(real.admin, { shoeId: after.currentShoeId, reason: 'END_OF_SESSION' });
    }
  }
  // Shoes a crash left CLOSING (their table already points at a newer one): a retry finishes them.
  for (const shoeId of real.shoes) {
    const shoe = (await real.store.get('shoe', { shoeId }))!;
    if (shoe.status === 'CLOSING')
      await real.core.closeShoe(real.admin, { shoeId, reason: 'END_OF_SESSION' });
  }
  await checkInvariants(real, { finished: true });
}

describe(`money invariants under random interleavings (${backend()} store, ${RUNS} runs)`, () => {
  it(
    'hold after every step, and at the end every stake is settled or refunded',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(0, 0, 0.15),
          fc.integer(),
          fc.commands([step], { maxCommands: STEPS, size: 'medium' }),
          async (conflictRate, seed, commands) => {
            const real = await setup(conflictRate, seed);
            await fc.asyncModelRun(() => ({ model: {}, real }), commands);
            await finish(real);
          },
        ),
        {
          numRuns: RUNS,
          ...(SEED !== 'random' && { seed: Number(SEED) }),
          ...(process.env.MODEL_PATH && { path: process.env.MODEL_PATH }),
          endOnFailure: !memory,
        },
      );
    },
    memory ? 600_000 : 900_000,
  );
  afterAll(() => {
    if (process.env.MODEL_STATS)
      console.log(
        [...stats]
          .sort()
          .map(([k, n]) => `${k}: ${n}`)
          .join('\n'),
      );
  });
});
