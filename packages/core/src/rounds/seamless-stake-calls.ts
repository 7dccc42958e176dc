/** The seamless stake source's calls (stake-source.ts): a bet or a withdrawal; its money at the end of a round is `seamlessStakeMoney` (seamless-stake.ts). */
import { debitTxIdOf, withdrawTxIdOf } from '../seamless';
import { placeSeamlessBet } from './seamless-bets';
import { withdrawSeamless } from './seamless-withdraw';
import { type StakeCalls, seamlessOperator } from './stake-source';

export const seamlessStakeCalls: StakeCalls = {
  mode: 'seamless',

  change(ctx, { facts, config, change, idempotencyKey, operator, fresh }) {
    const txIds = {
      debit: debitTxIdOf(facts.operatorId, facts.roundId, change.playerId, idempotencyKey),
      withdraw: withdrawTxIdOf(facts.operatorId, facts.roundId, change.playerId, idempotencyKey),
    };
    return change.kind === 'BET'
      ? placeSeamlessBet(ctx, { facts, config, change, operator: seamlessOperator(operator), txIds, fresh })
      : withdrawSeamless(ctx, { facts, config, change, txIds, fresh });
  },
};
