/**
 * CadenceRunner for dev and tests: the very definition (./definition.ts) run by aws-local-stepfunctions,
 * each Task state handed to `run(step, state)` in this process instead of the Lambda function. One
 * execution per name, as Step Functions: a second start of a round is ALREADY_STARTED.
 *
 * With `clock` (a test clock whose `sleep` moves it forward), the Wait states and the retry intervals
 * take no real time: the runner waits on that clock instead — until `closesAt` before "no va más",
 * until `beaconAt` before the deal,
 * `pauseSeconds` before the next round, a second before a retried step — so a cadence test is
 * deterministic and fast. Without it (./scripts/dev) the machine's own Wait states wait for real.
 */
import type { CadenceRound, CadenceRunner, Clock } from '@pyb/core';
import { StateMachine } from 'aws-local-stepfunctions';
import { type CadenceStep, cadenceDefinition, executionName, TASK_STEPS } from './definition';

/** Local function names in the Lambda ARN form the definition validator wants: cadence-step's, */
export const LOCAL_FUNCTION_ARN = 'arn:aws:lambda:us-east-1:000000000000:function:pyb-local-cadence-step';
/** and the shoe opener's (OpenShoe). */
export const LOCAL_SHOE_FUNCTION_ARN =
  'arn:aws:lambda:us-east-1:000000000000:function:pyb-local-cadence-open-shoe';

type State = Record<string, unknown>;

export interface LocalCadenceRunnerOptions {
  /**
   * Runs one step: what the function of its Task does on AWS (functions/jobs/cadence-open-shoe for
   * 'shoe', functions/jobs/cadence-step for the rest).
   */
  run(step: CadenceStep, state: State): Promise<State>;
  /** A clock whose `sleep` the waits go through (tests); absent: real Wait states. */
  clock?: Clock;
  /**
   * Awaited before each step and its wait: a test's hand on the dealer (the browser tests hold
   * "no va más" until their players have bet, on a clock that skips waits). Absent: no hold.
   */
  hold?: (step: CadenceStep, state: State) => Promise<void>;
}

export interface LocalExecution {
  name: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  output?: State;
  error?: string;
}

export class LocalCadenceRunner implements CadenceRunner {
  readonly executions = new Map<string, LocalExecution>();
  private readonly running = new Set<Promise<void>>();
  private readonly machine = new StateMachine(
    cadenceDefinition(LOCAL_FUNCTION_ARN, LOCAL_SHOE_FUNCTION_ARN) as never,
  );

  constructor(private readonly options: LocalCadenceRunnerOptions) {}

  async start(round: CadenceRound): Promise<'STARTED' | 'ALREADY_STARTED'> {
    const name = executionName(round.tableId, round.tableRound);
    if (this.executions.has(name)) return 'ALREADY_STARTED';
    const execution: LocalExecution = { name, status: 'RUNNING' };
    this.executions.set(name, execution);
    const input = { tableId: round.tableId, operatorId: round.operatorId, tableRound: round.tableRound };
    const { result } = this.machine.run(input, { overrides: this.overrides() });
    const done = result.then(
      (output) => {
        execution.status = 'SUCCEEDED';
        execution.output = output as State;
      },
      (error: Error) => {
        execution.status = 'FAILED';
        execution.error = error.message;
      },
    );
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
    return 'STARTED';
  }

  /** Resolves once no execution runs (those started meanwhile included): the table stopped itself. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private overrides() {
    const clock = this.options.clock;
    const sleep = clock?.sleep?.bind(clock);
    const handlers = Object.fromEntries(
      Object.entries(TASK_STEPS).map(([stateName, step]) => [
        stateName,
        async (input: unknown) => {
          const state = (input as { state: State }).state;
          await this.options.hold?.(step, state);
          if (sleep) await this.waitBefore(step, state, clock!, sleep);
          try {
            return (await this.options.run(step, state)) as never;
          } catch (error) {
            // The retry interval, on the clock (the machine's own interval is overridden to 0).
            if (sleep) await sleep(1000);
            throw error;
          }
        },
      ]),
    );
    if (!sleep) return { taskResourceLocalHandlers: handlers };
    return {
      taskResourceLocalHandlers: handlers,
      waitTimeOverrides: { BettingOpen: 0, BeaconOut: 0, BetweenRounds: 0 },
      retryIntervalOverrides: Object.fromEntries(Object.keys(TASK_STEPS).map((s) => [s, 0])),
    };
  }

  /** What the Wait state before the step waits, on the test clock. */
  private async waitBefore(
    step: CadenceStep,
    state: State,
    clock: Clock,
    sleep: (ms: number) => Promise<void>,
  ) {
    const until = step === 'close' ? state.closesAt : step === 'deal' ? state.beaconAt : undefined;
    if (typeof until === 'string') {
      const ms = Date.parse(until) - clock.now().getTime();
      if (ms > 0) await sleep(ms);
    }
    if (step === 'next' && typeof state.pauseSeconds === 'number' && state.pauseSeconds > 0)
      await sleep(state.pauseSeconds * 1000);
  }
}
