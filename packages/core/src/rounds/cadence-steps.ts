/**
 * The steps of a cadence table's round (docs/architecture.md, "Table cadence"), as the tasks of the
 * cadence state machine call them (@pyb/cadence definition.ts): each calls the round's own use cases
 * (openRound, closeRoundBetting, resolveRound, openShoe, closeShoe), so what they record and publish
 * is what an operator's calls would. Each is idempotent: a task retried after a crash reads where the
 * round is and carries on from there. A refusal leaves as a `CadenceStepError` named by its problem
 * code (BEACON_PENDING, TABLE_LOCKED, ...): the state machine's Retry and Catch match that name.
 */
import { roundTime } from '@pyb/fairness';
import { type Actor, type Ctx, DomainError, type TableRecord } from '../shared';
import { closeShoe, openShoe } from '../shoes';
import { lockForCadence, pauseAtShoeEnd } from '../tables';
import { closeRoundBetting, resolveRound } from './resolve';
import { openRound } from './rounds';

/** What a run of the state machine carries from one state to the next. */
export interface CadenceState {
  tableId: string;
  operatorId: string;
  tableRound: number;
  roundId?: string;
  closesAt?: string;
  /** When the beacon round "no va más" named is published (the Wait before Deal); now if none. */
  beaconAt?: string;
  pauseSeconds?: number;
  /** The round ended without a coup (an operator voided it): nothing to settle. */
  voided?: boolean;
  status?: string;
  /** Why this run opened no round (the cadence paused, stopped, no shoe to play). */
  stopped?: string;
  /** The table's shoe ended and was closed, and the settings want the next: the shoe step opens it. */
  needsShoe?: boolean;
  /** The shoe this run's shoe step opened. */
  shoeOpened?: string;
  /** The next round's run: STARTED, ALREADY_STARTED, or why none (PAUSED, STOPPED, TABLE_LOCKED, TABLE_DISABLED). */
  next?: string;
}

/** A step's failure, named for the state machine (Lambda's errorType is the error's name). */
export class CadenceStepError extends Error {
  constructor(
    override readonly name: string,
    message: string,
  ) {
    super(message);
  }
}

/** Settlement handed to the queue and not finished yet: the Settle state retries. */
export const SETTLEMENT_PENDING = 'SETTLEMENT_PENDING';

/** The cadence acts as the table's operator (its own use cases check the tenancy). */
const actorOf = (s: CadenceState): Actor => ({ operatorId: s.operatorId, role: 'operator', supervises: [] });

async function step<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DomainError) throw new CadenceStepError(error.code, error.message);
    throw error;
  }
}

/**
 * Whether the table has a shoe to play: OPEN, yes; one that ended is closed first (its seed revealed:
 * Decrypt). Opening the next one is not done here but by the shoe step, in its own function: the seal
 * (GenerateRandom, Encrypt) belongs to the shoe opener alone, never to a function that unseals (K1).
 */
async function shoeInPlay(ctx: Ctx, actor: Actor, table: TableRecord): Promise<boolean> {
  if (!table.currentShoeId) return false;
  const shoe = await ctx.store.get('shoe', { shoeId: table.currentShoeId });
  if (shoe?.status === 'OPEN') return true;
  if (shoe?.status === 'ENDED' || shoe?.status === 'CLOSING')
    await closeShoe(ctx, actor, { shoeId: shoe.shoeId });
  return false;
}

/**
 * Opens the run's round (or finds it opened by this run's earlier try); `stopped` if none is due;
 * `needsShoe` when the shoe ended and the settings want the next (the shoe step, then this again).
 */
export function cadenceOpen(ctx: Ctx, state: CadenceState): Promise<CadenceState> {
  return step(async () => {
    const { needsShoe: _, ...s } = state;
    const actor = actorOf(s);
    const table = await ctx.store.get('table', { tableId: s.tableId });
    if (!table) return { ...s, stopped: 'TABLE_NOT_FOUND' };
    const pauseSeconds = table.cadence?.pauseSeconds ?? 0;
    if (table.openRoundId && table.rounds === s.tableRound) {
      const round = (await ctx.store.get('round', { roundId: table.openRoundId }))!;
      return { ...s, roundId: round.roundId, closesAt: round.closesAt ?? ctx.now(), pauseSeconds };
    }
    if ((table.rounds ?? 0) + 1 !== s.tableRound) return { ...s, stopped: 'ROUND_ALREADY_PLAYED' };
    if (table.cadence?.state !== 'RUNNING') return { ...s, stopped: table.cadence ? 'PAUSED' : 'STOPPED' };
    if (table.lock) return { ...s, stopped: 'TABLE_LOCKED' };
    // Switched off: nothing opens. Switched off while a round was in play, NextRound started no run
    // for this one and switching back on starts it (rounds/availability.ts); switched off in the
    // instant between NextRound and here, this run took the round's run name, as a pause there does
    // (docs/api.md, "Game availability": open the next round by hand, then pause and resume).
    if (table.disabled) return { ...s, stopped: 'TABLE_DISABLED' };
    if (!(await shoeInPlay(ctx, actor, table))) {
      // A shoe this run opened and no longer in play (abandoned meanwhile): no second one.
      if (!table.cadence.nextShoe) {
        await pauseAtShoeEnd(ctx, (await ctx.store.get('table', { tableId: s.tableId }))!);
        return { ...s, stopped: 'SHOE_ENDED' };
      }
      if (s.shoeOpened) return { ...s, stopped: 'SHOE_ENDED' };
      return { ...s, needsShoe: true };
    }
    const round = await openRound(ctx, actor, { tableId: s.tableId });
    return { ...s, roundId: round.roundId, closesAt: round.closesAt ?? ctx.now(), pauseSeconds };
  });
}

/**
 * Opens the table's next shoe (openShoe: the seed drawn and sealed), in the shoe opener's own function.
 * Idempotent: a table with a shoe in play (this step's earlier try opened it), a table no longer
 * RUNNING or locked gets none — the open step that follows says why no round opens.
 */
export function cadenceOpenShoe(ctx: Ctx, state: CadenceState): Promise<CadenceState> {
  return step(async () => {
    const { needsShoe: _, ...s } = state;
    const table = await ctx.store.get('table', { tableId: s.tableId });
    if (!table || table.currentShoeId || table.lock || table.disabled || table.cadence?.state !== 'RUNNING')
      return s;
    const shoe = await openShoe(ctx, actorOf(s), { tableId: s.tableId });
    return { ...s, shoeOpened: shoe.shoeId };
  });
}

/** "No va más" at `closesAt` (the Wait state before it): the receipt naming the beacon round. */
export function cadenceClose(ctx: Ctx, s: CadenceState): Promise<CadenceState> {
  return step(async () => {
    try {
      const round = await closeRoundBetting(ctx, actorOf(s), { roundId: s.roundId! });
      return { ...s, status: round.status, beaconAt: await beaconAt(ctx, round) };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'ROUND_VOIDED') return { ...s, voided: true };
      throw error;
    }
  });
}

/** When the round's beacon round is out: the state machine waits until then rather than retrying. */
async function beaconAt(
  ctx: Ctx,
  round: { shoeId: string; bettingClosed: { beaconRound: number } | null },
): Promise<string> {
  const shoe = round.bettingClosed ? await ctx.store.get('shoe', { shoeId: round.shoeId }) : undefined;
  if (!round.bettingClosed || !shoe) return ctx.now();
  return new Date(roundTime(shoe.statement.beacon, round.bettingClosed.beaconRound) * 1000).toISOString();
}

/** Deals (BEACON_PENDING until the beacon round is out: the state's Retry waits) and settles. */
export function cadenceDeal(ctx: Ctx, s: CadenceState): Promise<CadenceState> {
  return step(async () => {
    if (s.voided) return s;
    try {
      const round = await resolveRound(ctx, actorOf(s), { roundId: s.roundId! });
      return { ...s, status: round.status };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'ROUND_VOIDED') return { ...s, voided: true };
      throw error;
    }
  });
}

/** Settlement finished (the queue's batches landed), else SETTLEMENT_PENDING for the state's Retry. */
export function cadenceSettle(ctx: Ctx, s: CadenceState): Promise<CadenceState> {
  return step(async () => {
    if (s.voided || s.status === 'SETTLED') return s;
    const round = await resolveRound(ctx, actorOf(s), { roundId: s.roundId! });
    if (round.status !== 'SETTLED')
      throw new CadenceStepError(SETTLEMENT_PENDING, `round ${s.roundId} is ${round.status}`);
    return { ...s, status: round.status };
  });
}

/**
 * After the pause: closes the shoe this round ended, and starts the next round's run while the
 * cadence is RUNNING (a run of that name already there is not started again).
 */
export function cadenceNext(ctx: Ctx, s: CadenceState): Promise<CadenceState> {
  return step(async () => {
    const table = (await ctx.store.get('table', { tableId: s.tableId }))!;
    if (table.lock) return { ...s, next: 'TABLE_LOCKED' };
    if (table.currentShoeId) {
      const shoe = await ctx.store.get('shoe', { shoeId: table.currentShoeId });
      if (shoe?.status === 'ENDED' || shoe?.status === 'CLOSING') {
        await closeShoe(ctx, actorOf(s), { shoeId: shoe.shoeId });
        // No next shoe wanted: the cadence stops with this one, and no run is started for a round
        // that cannot open (its name stays free for the run a `resume` starts).
        if (table.cadence?.state === 'RUNNING' && !table.cadence.nextShoe) {
          await pauseAtShoeEnd(ctx, (await ctx.store.get('table', { tableId: s.tableId }))!);
          return { ...s, next: 'SHOE_ENDED' };
        }
      }
    }
    if (table.cadence?.state !== 'RUNNING') return { ...s, next: table.cadence ? 'PAUSED' : 'STOPPED' };
    // No run for a round that cannot open: its name stays free for the run switching it on starts.
    if (table.disabled) return { ...s, next: 'TABLE_DISABLED' };
    const next = await ctx.cadence.start({
      tableId: s.tableId,
      operatorId: s.operatorId,
      tableRound: s.tableRound + 1,
    });
    return { ...s, next };
  });
}

/** The Catch of every step: the table locked with what failed (TABLE_LOCKED, source CADENCE). */
export async function cadenceLock(
  ctx: Ctx,
  s: CadenceState & { error?: { Error?: string; Cause?: string } },
): Promise<CadenceState> {
  await lockForCadence(ctx, s.tableId, {
    cause: s.error?.Error ?? 'CADENCE_FAILED',
    detail: String(s.error?.Cause ?? 'a cadence step failed past its retries'),
    ...(s.roundId !== undefined && { roundId: s.roundId }),
  });
  return s;
}

const STEPS = {
  open: cadenceOpen,
  shoe: cadenceOpenShoe,
  close: cadenceClose,
  deal: cadenceDeal,
  settle: cadenceSettle,
  next: cadenceNext,
  lock: cadenceLock,
} as const;

/** One task of the state machine, by the name its definition gives it (`{ step, state }`). */
export function runCadenceStep(ctx: Ctx, step: string, state: CadenceState): Promise<CadenceState> {
  const run = STEPS[step as keyof typeof STEPS];
  if (!run) throw new CadenceStepError('INVALID_INPUT', `unknown cadence step ${step}`);
  if (
    typeof state?.tableId !== 'string' ||
    typeof state.operatorId !== 'string' ||
    !Number.isSafeInteger(state.tableRound)
  )
    throw new CadenceStepError('INVALID_INPUT', 'a cadence state has tableId, operatorId and tableRound');
  return run(ctx, state);
}
