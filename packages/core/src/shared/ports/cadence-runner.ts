/**
 * Table cadence (docs/architecture.md, "Table cadence"): a table that runs itself plays each round as
 * one run of the cadence state machine (AWS Step Functions Standard; locally aws-local-stepfunctions
 * on the same definition). A run is named after the table's round number, so a round cannot be
 * started twice: a second start of the same round is told it is already running.
 */
export interface CadenceRound {
  tableId: string;
  operatorId: string;
  /** The table's round number this run plays (`TableRecord.rounds + 1` when it starts). */
  tableRound: number;
}

export interface CadenceRunner {
  /** Starts the run of `round`; `ALREADY_STARTED` when a run of that name exists (nothing started). */
  start(round: CadenceRound): Promise<'STARTED' | 'ALREADY_STARTED'>;
}

/** For cores that never start a cadence: starting one is a bug, not a 5xx to retry. */
export const noCadenceRunner: CadenceRunner = {
  start: () =>
    Promise.reject(new Error('this context has no cadence runner (the cadence functions pass one)')),
};
