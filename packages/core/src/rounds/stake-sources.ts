/**
 * The one place a stake source is chosen (stake-source.ts): for a call, by the operator's record as
 * read (`walletMode`; no record: hosted); for a position's settlement or refund, by the source its
 * stake came from, fixed on the position when it was made (`PositionRecord.wallet`). An operator
 * changes mode only when quiet (no open position: wallet/operators.ts), so the two agree.
 */
import type { OperatorWalletState, PositionRecord } from '../shared';
import { hostedStake } from './hosted-stake';
import { seamlessStake } from './seamless-stake';
import type { StakeSource } from './stake-source';

export const stakeSourceOf = (operator: Pick<OperatorWalletState, 'walletMode'> | undefined): StakeSource =>
  operator?.walletMode === 'seamless' ? seamlessStake : hostedStake;

export const stakeSourceOfPosition = (position: Pick<PositionRecord, 'wallet'>): StakeSource =>
  position.wallet === 'seamless' ? seamlessStake : hostedStake;
