/** The hosted stake source's calls (stake-source.ts): a bet or a withdrawal; its money at the end of a round is `hostedStakeMoney` (hosted-stake.ts). */
import { changePosition } from './hosted-bets';
import type { StakeCalls } from './stake-source';

export const hostedStakeCalls: StakeCalls = {
  mode: 'hosted',

  change: (ctx, { facts, config, change, fresh }) => changePosition(ctx, { facts, config, change, fresh }),
};
