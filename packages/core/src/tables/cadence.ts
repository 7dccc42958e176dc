/**
 * Table cadence (docs/architecture.md, "Table cadence"): a table that runs itself. The settings and
 * whether it runs live on the table item; each round is one run of the cadence state machine
 * (ports/cadence-runner.ts), which calls the rounds' own use cases (rounds/cadence-steps.ts) and, at
 * its end, starts the next round's run while the cadence is RUNNING. Pause and stop are graceful: the
 * round in play finishes (its run is never cut short), no new one opens.
 */
import { cadenceTooFast, MIN_GAME_SECONDS } from '@pyb/contracts';
import type { Actor, ControlCadenceInput, TableCadence, TableRecord, TableView } from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  conflict,
  invalid,
  requireWriter,
  TransactionCanceled,
  tableView,
  tooMuchContention,
} from '../shared';
import { assertAvailable } from './availability';
import { assertUnlocked } from './lock-out';
import { loadTable } from './tables';

const ACTIONS = ['start', 'pause', 'resume', 'stop'];

/** The settings as the rules take them (called past the schema too): whole seconds, RTS 14G. */
function checkSettings(input: ControlCadenceInput['cadence']): Omit<TableCadence, 'state' | 'since'> {
  if (!input)
    throw invalid('INVALID_INPUT', 'start needs `cadence`: { bettingSeconds, pauseSeconds, nextShoe }');
  const { bettingSeconds, pauseSeconds = 0, nextShoe = true } = input;
  const whole = (n: unknown, min: number) =>
    Number.isSafeInteger(n) && (n as number) >= min && (n as number) <= 300;
  if (!whole(bettingSeconds, 1) || !whole(pauseSeconds, 0))
    throw invalid('INVALID_INPUT', 'bettingSeconds is 1-300 and pauseSeconds 0-300 whole seconds');
  if (cadenceTooFast({ bettingSeconds, pauseSeconds }))
    throw invalid(
      'CADENCE_TOO_FAST',
      `rounds would start ${bettingSeconds + pauseSeconds} s apart: at least ${MIN_GAME_SECONDS} s from one game's start to the next (UKGC RTS 14G)`,
    );
  return { bettingSeconds, pauseSeconds, nextShoe: nextShoe !== false };
}

/** What the action makes of the table's cadence (undefined: removed). */
function nextCadence(
  ctx: Pick<Ctx, 'now'>,
  table: TableRecord,
  input: ControlCadenceInput,
): TableCadence | undefined {
  const since = ctx.now();
  switch (input.action) {
    case 'start':
      return { ...checkSettings(input.cadence), state: 'RUNNING', since };
    case 'stop':
      return undefined;
    default: {
      if (!table.cadence)
        throw conflict(
          'CADENCE_NOT_SET',
          `table ${table.tableId} has no cadence: start it with its settings`,
        );
      return { ...table.cadence, state: input.action === 'resume' ? 'RUNNING' : 'PAUSED', since };
    }
  }
}

const shoeToPlay = async (ctx: Ctx, table: TableRecord): Promise<boolean> =>
  table.currentShoeId !== undefined &&
  (await ctx.store.get('shoe', { shoeId: table.currentShoeId }))?.status === 'OPEN';

export async function controlCadence(ctx: Ctx, actor: Actor, input: ControlCadenceInput): Promise<TableView> {
  requireWriter(actor);
  if (!ACTIONS.includes(input.action))
    throw invalid('INVALID_INPUT', 'action is start, pause, resume or stop');
  for (const attempt of attempts(ctx)) {
    const table = await loadTable(ctx, actor, input.tableId, 'write');
    const cadence = nextCadence(ctx, table, input);
    if (cadence?.state === 'RUNNING') {
      assertUnlocked(table);
      assertAvailable(table);
      // Without a shoe to play and none to be opened, the run would stop at once and spend the
      // round's run name: the operator opens a shoe first.
      if (!cadence.nextShoe && !(await shoeToPlay(ctx, table)))
        throw conflict('NO_SHOE_OPEN', `table ${table.tableId} has no shoe in play: open one first`);
      // A round opened by an operator's call is not the cadence's: it finishes it first.
      if (table.openRoundId && table.cadence?.state === undefined)
        throw conflict('ROUND_IN_PLAY', `round ${table.openRoundId} is in play: resolve or void it first`);
    }
    try {
      await ctx.store.transact([
        {
          kind: 'update',
          entity: 'table',
          key: { tableId: table.tableId },
          set: { cadence: cadence ?? null },
          expect: { rounds: table.rounds ?? null, openRoundId: table.openRoundId ?? null },
        },
      ]);
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      await backoff(attempt); // a round opened or settled meanwhile: decide again on the re-read
      continue;
    }
    const updated: TableRecord = { ...table };
    if (cadence) updated.cadence = cadence;
    else delete updated.cadence;
    // No round in play: this call starts the next one. With one in play, its run starts the next at
    // its end (it reads RUNNING); both would name the same run, and only one starts.
    if (cadence?.state === 'RUNNING' && !table.openRoundId)
      await ctx.cadence.start({
        tableId: table.tableId,
        operatorId: table.operatorId,
        tableRound: (table.rounds ?? 0) + 1,
      });
    return tableView(updated);
  }
  throw tooMuchContention('changing the cadence');
}

/**
 * The shoe ended and the settings want no next one (`nextShoe: false`): the cadence stops with it, as
 * PAUSED with its settings kept, so that the table says it is not running and a `resume` after the
 * next shoe is opened goes on. Only a cadence still RUNNING at this round count is paused (an
 * operator's change meanwhile stands).
 */
export async function pauseAtShoeEnd(ctx: Ctx, table: TableRecord): Promise<void> {
  if (table.cadence?.state !== 'RUNNING') return;
  try {
    await ctx.store.transact([
      {
        kind: 'update',
        entity: 'table',
        key: { tableId: table.tableId },
        set: { cadence: { ...table.cadence, state: 'PAUSED', since: ctx.now() } },
        expect: { 'cadence.state': 'RUNNING', rounds: table.rounds ?? null, currentShoeId: null },
      },
    ]);
  } catch (error) {
    if (!(error instanceof TransactionCanceled)) throw error;
  }
}
