/**
 * The cadence state machine (Amazon States Language): one execution plays one round of a table that
 * runs itself. The ONE definition: the CDK stack deploys it (infra/src/cadence.ts) and the local
 * runner runs it (./local.ts, aws-local-stepfunctions). Every Task calls the cadence function with
 * `{ step, state }` (functions/jobs/cadence-step) but OpenShoe, which calls the shoe opener's
 * (functions/jobs/cadence-open-shoe): only it may draw and seal a seed, and it unseals none (K1).
 * The steps are the core's (rounds/cadence-steps.ts).
 *
 *   OpenRound → Opened? ─stopped→ Stopped
 *                  ├─needsShoe→ OpenShoe (the shoe ended and was closed: the next one) → OpenRound
 *                  └→ BettingOpen (Wait until closesAt) → NoVaMas → BeaconOut (Wait until the named
 *                     beacon round's time) → Deal (Retry while BEACON_PENDING)
 *                     → Settle (Retry while SETTLEMENT_PENDING) → BetweenRounds (Wait pauseSeconds)
 *                     → NextRound (starts the next round's execution) → Done
 *   any Task, past its retries (or timed out) → LockTable (TABLE_LOCKED, source CADENCE) → Locked
 */

/** The steps the cadence functions run (their event's `step`): 'shoe' the shoe opener's, the rest cadence-step's. */
export const CADENCE_STEPS = ['open', 'shoe', 'close', 'deal', 'settle', 'next', 'lock'] as const;
export type CadenceStep = (typeof CADENCE_STEPS)[number];

/** Task state → the step it runs. */
export const TASK_STEPS = {
  OpenRound: 'open',
  OpenShoe: 'shoe',
  NoVaMas: 'close',
  Deal: 'deal',
  Settle: 'settle',
  NextRound: 'next',
  LockTable: 'lock',
} as const satisfies Record<string, CadenceStep>;

/** Seconds a step may run before Step Functions calls it stuck (States.Timeout: retried, then the lock). */
export const STEP_TIMEOUT_SECONDS = 30;
/** A round's whole execution; past it the execution times out (the stack's alarm watches that). */
export const ROUND_TIMEOUT_SECONDS = 900;
/** How often, and how many times, a deal waits for its beacon round (drand quicknet: 3 s rounds). */
export const BEACON_RETRY = { IntervalSeconds: 1, MaxAttempts: 60, BackoffRate: 1 } as const;
/** How often, and how many times, Settle looks again at a settlement handed to the queue. */
export const SETTLEMENT_RETRY = { IntervalSeconds: 1, MaxAttempts: 300, BackoffRate: 1 } as const;
/** A crashed or stuck step (the function failed, timed out, was throttled): retried, then the table locks. */
export const CRASH_RETRY = {
  ErrorEquals: ['States.TaskFailed', 'States.Timeout'],
  IntervalSeconds: 1,
  MaxAttempts: 3,
  BackoffRate: 2,
} as const;

const task = (resource: string, step: CadenceStep, next: string, retry: object[] = []) => ({
  Type: 'Task',
  Resource: resource,
  Parameters: { step, 'state.$': '$' },
  TimeoutSeconds: STEP_TIMEOUT_SECONDS,
  Retry: [...retry, CRASH_RETRY],
  Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'LockTable' }],
  Next: next,
});

/**
 * The definition, its Tasks calling `functionArn` (the deployed cadence-step function, or a local
 * name), OpenShoe calling `shoeFunctionArn` (cadence-open-shoe).
 */
export function cadenceDefinition(functionArn: string, shoeFunctionArn: string) {
  return {
    Comment: "One round of a table that runs itself (docs/architecture.md, 'Table cadence')",
    StartAt: 'OpenRound',
    TimeoutSeconds: ROUND_TIMEOUT_SECONDS,
    States: {
      OpenRound: task(functionArn, 'open', 'Opened?'),
      'Opened?': {
        Type: 'Choice',
        Choices: [
          { Variable: '$.stopped', IsPresent: true, Next: 'Stopped' },
          { Variable: '$.needsShoe', IsPresent: true, Next: 'OpenShoe' },
        ],
        Default: 'BettingOpen',
      },
      Stopped: { Type: 'Succeed' },
      // Once a shoe, not a round: then OpenRound again, which finds the new shoe OPEN.
      OpenShoe: task(shoeFunctionArn, 'shoe', 'OpenRound'),
      BettingOpen: { Type: 'Wait', TimestampPath: '$.closesAt', Next: 'NoVaMas' },
      NoVaMas: task(functionArn, 'close', 'BeaconOut'),
      // Until the beacon round "no va más" named is out (one transition, not a Retry a second).
      BeaconOut: { Type: 'Wait', TimestampPath: '$.beaconAt', Next: 'Deal' },
      Deal: task(functionArn, 'deal', 'Settle', [{ ErrorEquals: ['BEACON_PENDING'], ...BEACON_RETRY }]),
      Settle: task(functionArn, 'settle', 'BetweenRounds', [
        { ErrorEquals: ['SETTLEMENT_PENDING'], ...SETTLEMENT_RETRY },
      ]),
      BetweenRounds: { Type: 'Wait', SecondsPath: '$.pauseSeconds', Next: 'NextRound' },
      NextRound: task(functionArn, 'next', 'Done'),
      Done: { Type: 'Succeed' },
      LockTable: {
        Type: 'Task',
        Resource: functionArn,
        Parameters: { step: 'lock', 'state.$': '$' },
        TimeoutSeconds: STEP_TIMEOUT_SECONDS,
        Retry: [{ ...CRASH_RETRY, MaxAttempts: 6 }],
        Next: 'Locked',
      },
      Locked: { Type: 'Fail', Error: 'TABLE_LOCKED', Cause: 'a cadence step failed past its retries' },
    },
  };
}

/**
 * Execution names: [0-9A-Za-z-_], at most 80 characters, unique per state machine for 90 days after
 * the execution ends — the table and its round number, so a round cannot start twice.
 */
export function executionName(tableId: string, tableRound: number): string {
  const suffix = `-r${tableRound}`;
  return tableId.replace(/[^0-9A-Za-z_-]/g, '_').slice(0, 80 - suffix.length) + suffix;
}

/**
 * State transitions of one round's execution (the Standard price unit): entries into each state. The
 * round that opens a shoe has three more (OpenShoe, OpenRound, Opened? again): once a shoe, not a round.
 */
export const TRANSITIONS_PER_ROUND = [
  'OpenRound',
  'Opened?',
  'BettingOpen',
  'NoVaMas',
  'BeaconOut',
  'Deal',
  'Settle',
  'BetweenRounds',
  'NextRound',
  'Done',
].length;
