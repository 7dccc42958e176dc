export { MAX_POSITION_CALLS } from './bet-parts';
export { placeBet, withdrawBets } from './bets';
export * from './cadence-steps';
export { leaveTable } from './leave';
export { closeRoundBetting, resolveRound } from './resolve';
export { getRound, loadRound, openRound } from './rounds';
export { MAX_SEAMLESS_POSITION_CALLS } from './seamless-bets';
export { runSettlementBatch } from './settlement-batch';
export { voidRound } from './void';
