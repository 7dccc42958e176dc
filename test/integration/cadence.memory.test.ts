/**
 * Table cadence (docs/architecture.md, "Table cadence"): a table runs itself on the cadence state
 * machine — the very definition the stack deploys, run by aws-local-stepfunctions — on the in-memory
 * store. Its waits go through the test clock (no real sleep of seconds): deterministic.
 */
import { LocalCadenceRunner } from '@pyb/cadence/local';
import type { CadenceState, Ctx } from '@pyb/core/use-cases';
import { context, runCadenceStep } from '@pyb/core/use-cases';
import { afterEach, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { fundPlayers } from '../support/fixture';
import { createTestStack, TEST_BEACON, type TestStack } from '../support/stack';

const ONE_DECK = { decks: 1, cutCard: { minCardsBehind: 14, maxCardsBehind: 20 } };
const op = operator('op-1');
const SETTINGS = { bettingSeconds: 15, pauseSeconds: 3, nextShoe: false };

let stack: TestStack | undefined;
afterEach(() => stack?.cleanup());

type Step = Parameters<typeof runCadenceStep>[1];

/**
 * A stack whose cadence runs locally; `around(step, state, run)` may stand in for a step (to crash it,
 * to pause the table at a given moment).
 */
async function cadenceStack(
  around?: (step: Step, state: CadenceState, run: () => Promise<CadenceState>) => Promise<CadenceState>,
) {
  stack = await createTestStack('cadence', {}, 'memory');
  const s = stack;
  let ctx: Ctx | undefined;
  const steps: { step: Step; tableRound: number; at: string }[] = [];
  const runner = new LocalCadenceRunner({
    clock: s.clock,
    run: async (step, state) => {
      const st = state as unknown as CadenceState;
      steps.push({ step, tableRound: st.tableRound, at: s.clock.now().toISOString() });
      const run = () => runCadenceStep(ctx!, step, st);
      return (around ? around(step, st, run) : run()) as unknown as Promise<Record<string, unknown>>;
    },
  });
  ctx = context({
    store: s.store,
    keys: s.keys,
    beacon: s.beacon,
    beaconMarginSeconds: TEST_BEACON.marginSeconds,
    timeStamper: s.timeStamps.timeStamper,
    clock: s.clock,
    closeDeadlines: s.closeDeadlines,
    testShoes: true,
    cadenceRunner: runner,
  });
  const core = s.coreWith({ cadenceRunner: runner });
  const table = await core.createTable(admin(), { name: 'Speed 1', variant: 'custom', config: ONE_DECK });
  return { core, runner, table, steps, ctx };
}

describe('a table that runs itself', () => {
  it('plays its whole shoe by itself: each round opens, closes at closesAt, is dealt and settled, then the next', async () => {
    const { core, runner, table } = await cadenceStack();
    const shoe = await core.openShoe(admin(), { tableId: table.tableId });
    const started = await core.controlCadence(op, {
      tableId: table.tableId,
      action: 'start',
      cadence: SETTINGS,
    });
    expect(started.cadence).toMatchObject({ ...SETTINGS, state: 'RUNNING' });
    await runner.idle();

    const executions = [...runner.executions.values()];
    const played = executions.filter((e) => e.output?.status === 'SETTLED');
    // A one-deck shoe to its cut card: some eight coups, each its own execution, none failed.
    expect(played.length).toBeGreaterThan(3);
    expect(executions.every((e) => e.status === 'SUCCEEDED')).toBe(true);
    // The shoe ended: closed by the cadence (seed revealed), no next run started (nextShoe false).
    expect(executions.at(-1)!.output).toMatchObject({ status: 'SETTLED', next: 'SHOE_ENDED' });
    expect((await core.getShoe(op, { shoeId: shoe.shoeId })).status).toBe('CLOSED');
    // …and the cadence stopped with it: PAUSED, its settings kept; resumed on a new shoe, it plays on.
    const ended = await core.getTable(op, { tableId: table.tableId });
    expect(ended.cadence).toMatchObject({ ...SETTINGS, state: 'PAUSED' });
    // Resumed with no shoe to play (and none to be opened): refused, nothing started.
    await expect(core.controlCadence(op, { tableId: table.tableId, action: 'resume' })).rejects.toMatchObject(
      {
        code: 'NO_SHOE_OPEN',
      },
    );
    expect(runner.executions.size).toBe(executions.length);
    await core.openShoe(admin(), { tableId: table.tableId });
    await core.controlCadence(op, { tableId: table.tableId, action: 'resume' });
    await runner.idle();
    const resumed = [...runner.executions.values()].slice(executions.length);
    expect(resumed.filter((e) => e.output?.status === 'SETTLED').length).toBeGreaterThan(3);
    expect(resumed.at(-1)!.output).toMatchObject({ status: 'SETTLED', next: 'SHOE_ENDED' });
    // Rounds started at least betting + pause apart (RTS 14G), each named after its round number.
    const rounds = await Promise.all(
      played.map((e) => core.getRound(op, { roundId: e.output!.roundId as string })),
    );
    for (const r of rounds) expect(Date.parse(r.closesAt!) - Date.parse(r.openedAt)).toBe(15_000);
    for (let i = 1; i < rounds.length; i++)
      expect(Date.parse(rounds[i]!.openedAt) - Date.parse(rounds[i - 1]!.openedAt)).toBeGreaterThanOrEqual(
        18_000,
      );
    expect(played.map((e) => e.name)).toEqual(played.map((_, i) => `${table.tableId}-r${i + 1}`));
  });

  it('a shoe played through, the next opened by the shoe step (its own function), whose round then plays', async () => {
    let core: Awaited<ReturnType<typeof cadenceStack>>['core'];
    const setup = await cadenceStack(async (step, state, run) => {
      // The first round of the next shoe: "pause" pressed while its betting is open.
      if (step === 'close' && setup.steps.some((s) => s.step === 'shoe'))
        await core.controlCadence(op, { tableId: state.tableId, action: 'pause' });
      return run();
    });
    core = setup.core;
    const { runner, table, steps, ctx } = setup;
    const first = await core.openShoe(admin(), { tableId: table.tableId });
    await core.controlCadence(op, {
      tableId: table.tableId,
      action: 'start',
      cadence: { ...SETTINGS, nextShoe: true },
    });
    await runner.idle();

    expect((await core.getShoe(op, { shoeId: first.shoeId })).status).toBe('CLOSED');
    // One shoe step in all, in the run after the shoe ended: OpenRound, OpenShoe, OpenRound again.
    const shoeSteps = steps.filter((s) => s.step === 'shoe');
    expect(shoeSteps).toHaveLength(1);
    const run = runner.executions.get(`${table.tableId}-r${shoeSteps[0]!.tableRound}`)!;
    expect(steps.filter((s) => s.tableRound === shoeSteps[0]!.tableRound).map((s) => s.step)).toEqual([
      'open',
      'shoe',
      'open',
      'close',
      'deal',
      'settle',
      'next',
    ]);
    expect(run).toMatchObject({ status: 'SUCCEEDED', output: { status: 'SETTLED', next: 'PAUSED' } });
    const second = run.output!.shoeOpened as string;
    expect(second).not.toBe(first.shoeId);
    expect(await core.getShoe(op, { shoeId: second })).toMatchObject({ status: 'OPEN', number: 2 });
    expect((await core.getRound(op, { roundId: run.output!.roundId as string })).shoeId).toBe(second);
    expect([...runner.executions.values()].every((e) => e.status === 'SUCCEEDED')).toBe(true);

    // Idempotent: a shoe step again (a retry) finds the shoe in play and opens none.
    const again = await runCadenceStep(ctx, 'shoe', {
      tableId: table.tableId,
      operatorId: 'op-1',
      tableRound: shoeSteps[0]!.tableRound,
      needsShoe: true,
    });
    expect(again).toEqual({
      tableId: table.tableId,
      operatorId: 'op-1',
      tableRound: shoeSteps[0]!.tableRound,
    });
    expect((await core.getTable(op, { tableId: table.tableId })).currentShoeId).toBe(second);
  });

  it('takes a bet before closesAt and refuses one at closesAt, even before "no va más" ran', async () => {
    const answers: string[] = [];
    const bet = (state: CadenceState, key: string) =>
      core
        .placeBet(op, {
          roundId: state.roundId!,
          playerId: 'ben',
          bets: [{ type: 'PLAYER', amount: 500 }],
          idempotencyKey: key,
        })
        .then(
          () => 'ACCEPTED',
          (e: { code: string }) => e.code,
        );
    let core: Awaited<ReturnType<typeof cadenceStack>>['core'];
    const setup = await cadenceStack(async (step, state, run) => {
      if (step === 'open' && state.tableRound === 1) {
        const opened = await run();
        answers.push(await bet(opened, 'ben-early'));
        return opened;
      }
      if (step === 'close' && state.tableRound === 1) {
        await core.controlCadence(op, { tableId: state.tableId, action: 'pause' });
        // The clock is at closesAt: the round is still OPEN, yet a bet now is refused.
        expect((await core.getRound(op, { roundId: state.roundId! })).status).toBe('OPEN');
        answers.push(await bet(state, 'ben-late'));
      }
      return run();
    });
    core = setup.core;
    await fundPlayers(core, op, ['ben'], 100_000);
    await core.openShoe(admin(), { tableId: setup.table.tableId });
    await core.controlCadence(op, { tableId: setup.table.tableId, action: 'start', cadence: SETTINGS });
    await setup.runner.idle();
    expect(answers).toEqual(['ACCEPTED', 'ROUND_NOT_OPEN']);
  });

  it('pause: the round in play finishes, nothing new opens; resume goes on from the next round', async () => {
    let core: Awaited<ReturnType<typeof cadenceStack>>['core'];
    const setup = await cadenceStack(async (step, state, run) => {
      // "Pause" pressed while round 2's betting is open.
      if (step === 'close' && state.tableRound === 2)
        await core.controlCadence(op, { tableId: state.tableId, action: 'pause' });
      return run();
    });
    core = setup.core;
    const { runner, table } = setup;
    await core.openShoe(admin(), { tableId: table.tableId });
    await core.controlCadence(op, { tableId: table.tableId, action: 'start', cadence: SETTINGS });
    await runner.idle();
    const after = await core.getTable(op, { tableId: table.tableId });
    expect(after.cadence?.state).toBe('PAUSED');
    expect(after.openRoundId).toBeNull();
    const names = [...runner.executions.keys()];
    expect(names).toEqual([`${table.tableId}-r1`, `${table.tableId}-r2`]);
    expect(runner.executions.get(`${table.tableId}-r2`)!.output).toMatchObject({
      status: 'SETTLED',
      next: 'PAUSED',
    });

    await core.controlCadence(op, { tableId: table.tableId, action: 'resume' });
    await runner.idle();
    expect(runner.executions.get(`${table.tableId}-r3`)?.status).toBe('SUCCEEDED');
  });

  it('switched off: the round in play gets its "no va más" and finishes, the cadence opens nothing; on, it plays on', async () => {
    const avail = { reason: 'studio camera fault', person: 'Ana Ruiz' };
    let core: Awaited<ReturnType<typeof cadenceStack>>['core'];
    const setup = await cadenceStack(async (step, state, run) => {
      // Switched off while round 2's betting is open: betting closes there and then.
      if (step === 'close' && state.tableRound === 2) {
        await core.setTableAvailability(op, { tableId: state.tableId, available: false, ...avail });
        expect((await core.getRound(op, { roundId: state.roundId! })).status).toBe('CLOSED');
      }
      return run();
    });
    core = setup.core;
    const { runner, table } = setup;
    await core.openShoe(admin(), { tableId: table.tableId });
    await core.controlCadence(op, { tableId: table.tableId, action: 'start', cadence: SETTINGS });
    await runner.idle();
    // Round 2 was dealt and settled by its own run, which then started none.
    expect([...runner.executions.keys()]).toEqual([`${table.tableId}-r1`, `${table.tableId}-r2`]);
    expect(runner.executions.get(`${table.tableId}-r2`)).toMatchObject({
      status: 'SUCCEEDED',
      output: { status: 'SETTLED', next: 'TABLE_DISABLED' },
    });
    const off = await core.getTable(op, { tableId: table.tableId });
    expect(off.openRoundId).toBeNull();
    expect(off.cadence?.state).toBe('RUNNING');
    // Resuming is no way round it.
    expect(
      await core
        .controlCadence(op, { tableId: table.tableId, action: 'pause' })
        .then((t) => t.cadence?.state),
    ).toBe('PAUSED');
    expect(
      await core
        .controlCadence(op, { tableId: table.tableId, action: 'resume' })
        .catch((e: { code: string }) => e.code),
    ).toBe('TABLE_DISABLED');
    expect(runner.executions.size).toBe(2);

    // Switched on: a paused cadence stays paused (nothing starts by itself)…
    await core.setTableAvailability(op, { tableId: table.tableId, available: true, ...avail });
    await runner.idle();
    expect(runner.executions.size).toBe(2);
    // …and resumed, round 3 plays.
    await core.controlCadence(op, { tableId: table.tableId, action: 'resume' });
    await runner.idle();
    expect(runner.executions.get(`${table.tableId}-r3`)).toMatchObject({
      status: 'SUCCEEDED',
      output: { status: 'SETTLED' },
    });
  });

  it('a RUNNING cadence switched back on starts its next round by itself', async () => {
    const avail = { reason: 'studio camera fault', person: 'Ana Ruiz' };
    let core: Awaited<ReturnType<typeof cadenceStack>>['core'];
    const setup = await cadenceStack(async (step, state, run) => {
      if (step === 'close' && state.tableRound === 1)
        await core.setTableAvailability(op, { tableId: state.tableId, available: false, ...avail });
      return run();
    });
    core = setup.core;
    const { runner, table } = setup;
    await core.openShoe(admin(), { tableId: table.tableId });
    await core.controlCadence(op, { tableId: table.tableId, action: 'start', cadence: SETTINGS });
    await runner.idle();
    expect([...runner.executions.keys()]).toEqual([`${table.tableId}-r1`]);
    await core.setTableAvailability(op, { tableId: table.tableId, available: true, ...avail });
    await runner.idle();
    expect(runner.executions.get(`${table.tableId}-r2`)).toMatchObject({
      status: 'SUCCEEDED',
      output: { status: 'SETTLED' },
    });
  });

  it('refuses settings whose games would start less than 5 s apart (UKGC RTS 14G)', async () => {
    const { core, table, runner } = await cadenceStack();
    const refused = await core
      .controlCadence(op, {
        tableId: table.tableId,
        action: 'start',
        cadence: { bettingSeconds: 3, pauseSeconds: 1, nextShoe: true },
      })
      .catch((e: { code: string }) => e.code);
    expect(refused).toBe('CADENCE_TOO_FAST');
    expect(runner.executions.size).toBe(0);
    expect(
      await core.controlCadence(op, { tableId: table.tableId, action: 'pause' }).catch((e) => e.code),
    ).toBe('CADENCE_NOT_SET');
  });

  it('a crashed step is retried and the round goes on; one that keeps failing locks the table with a reason', async () => {
    let crashes = 0;
    const setup = await cadenceStack(async (step, state, run) => {
      // Round 1: the deal's function dies once (after dealing: the retry finds it dealt and goes on).
      if (step === 'deal' && state.tableRound === 1 && crashes++ === 0) {
        await run();
        throw new Error('Runtime.ExitError: the process was killed');
      }
      // Round 2: "no va más" keeps failing.
      if (step === 'close' && state.tableRound === 2) throw new Error('connect ECONNREFUSED');
      return run();
    });
    const { core, runner, table } = setup;
    await core.openShoe(admin(), { tableId: table.tableId });
    await core.controlCadence(op, { tableId: table.tableId, action: 'start', cadence: SETTINGS });
    await runner.idle();
    expect(runner.executions.get(`${table.tableId}-r1`)).toMatchObject({ status: 'SUCCEEDED' });
    expect(runner.executions.get(`${table.tableId}-r1`)!.output).toMatchObject({ status: 'SETTLED' });
    expect(runner.executions.get(`${table.tableId}-r2`)!.status).toBe('FAILED');
    const locked = await core.getTable(op, { tableId: table.tableId });
    expect(locked.lock).toMatchObject({ source: 'CADENCE', phase: 'CADENCE', cause: 'Error' });
    expect(locked.lock!.detail).toMatch(/ECONNREFUSED/);
    expect(locked.lock!.roundId).toBe(locked.openRoundId);
    // Nothing opens on a locked table; an admin clears it, voids the round left open, resumes.
    expect(runner.executions.has(`${table.tableId}-r3`)).toBe(false);
  });

  it('two executions for one round are impossible: a second start of its name starts nothing', async () => {
    const { core, runner, table, steps } = await cadenceStack();
    await core.openShoe(admin(), { tableId: table.tableId });
    await core.controlCadence(op, { tableId: table.tableId, action: 'start', cadence: SETTINGS });
    const again = await runner.start({ tableId: table.tableId, operatorId: 'op-1', tableRound: 1 });
    expect(again).toBe('ALREADY_STARTED');
    await core.controlCadence(op, { tableId: table.tableId, action: 'pause' });
    await runner.idle();
    expect(steps.filter((s) => s.step === 'open' && s.tableRound === 1)).toHaveLength(1);
  });
});
