/**
 * CadenceRunner on AWS Step Functions (Standard): one execution per round, named after the table and
 * its round number (definition.ts `executionName`), so a second start of the same round is refused by
 * Step Functions itself (ExecutionAlreadyExists; the same name and input while it runs is answered
 * with that execution: still one).
 */
import type { SFNClient } from '@aws-sdk/client-sfn';
import { type CadenceRound, type CadenceRunner, onFirstUse } from '@pyb/core';
import { executionName } from './definition';

export interface SfnCadenceRunnerOptions {
  stateMachineArn: string;
  client?: SFNClient;
  region?: string;
}

type Sfn = typeof import('@aws-sdk/client-sfn');

export class SfnCadenceRunner implements CadenceRunner {
  /** The client, loaded at the first start (only the cadence functions ever start one). */
  private readonly load: () => Promise<{ sfn: Sfn; client: SFNClient }>;

  constructor(private readonly options: SfnCadenceRunnerOptions) {
    this.load = onFirstUse(async () => {
      const sfn = await import('@aws-sdk/client-sfn');
      return {
        sfn,
        client: options.client ?? new sfn.SFNClient(options.region ? { region: options.region } : {}),
      };
    });
  }

  async start(round: CadenceRound): Promise<'STARTED' | 'ALREADY_STARTED'> {
    const { sfn, client } = await this.load();
    try {
      await client.send(
        new sfn.StartExecutionCommand({
          stateMachineArn: this.options.stateMachineArn,
          name: executionName(round.tableId, round.tableRound),
          input: JSON.stringify({
            tableId: round.tableId,
            operatorId: round.operatorId,
            tableRound: round.tableRound,
          }),
        }),
      );
      return 'STARTED';
    } catch (error) {
      if (error instanceof sfn.ExecutionAlreadyExists || (error as Error).name === 'ExecutionAlreadyExists')
        return 'ALREADY_STARTED';
      throw error;
    }
  }
}

/** From the environment: CADENCE_STATE_MACHINE_ARN set (a deployment) → Step Functions; else none. */
export function createCadenceRunner(
  env: Record<string, string | undefined> = process.env,
): CadenceRunner | undefined {
  const stateMachineArn = env.CADENCE_STATE_MACHINE_ARN;
  if (!stateMachineArn) return undefined;
  return new SfnCadenceRunner({ stateMachineArn, ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}) });
}
