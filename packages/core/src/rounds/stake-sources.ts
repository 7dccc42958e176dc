/**
 * The one place a stake source is chosen (stake-source.ts): for a call, by the operator's record as
 * read (`walletMode`; no record: hosted); for a position's settlement or refund, by the source its
 * stake came from, fixed on the position when it was made (`PositionRecord.wallet`). An operator
 * changes mode only when quiet (no open position: wallet/operators.ts), so the two agree. Each
 * function answers the half of the source its callers use (a bundle keeps only what it reaches).
 */
import type { OperatorWalletState, PositionRecord } from '../shared';
import { hostedStakeMoney } from './hosted-stake';
import { hostedStakeCalls } from './hosted-stake-calls';
import { seamlessStakeMoney } from './seamless-stake';
import { seamlessStakeCalls } from './seamless-stake-calls';
import type { StakeCalls, StakeMoney } from './stake-source';

type Operator = Pick<OperatorWalletState, 'walletMode'> | undefined;

const seamless = (operator: Operator): boolean => operator?.walletMode === 'seamless';

/** The calls (bet, withdraw) of the operator's stake source. */
export const stakeCallsOf = (operator: Operator): StakeCalls =>
  seamless(operator) ? seamlessStakeCalls : hostedStakeCalls;

/** The money (a leaving player's balance) of the operator's stake source. */
export const stakeMoneyOf = (operator: Operator): StakeMoney =>
  seamless(operator) ? seamlessStakeMoney : hostedStakeMoney;

/** The money (settlement, refund) of the source a position's stake came from. */
export const stakeMoneyOfPosition = (position: Pick<PositionRecord, 'wallet'>): StakeMoney =>
  position.wallet === 'seamless' ? seamlessStakeMoney : hostedStakeMoney;
