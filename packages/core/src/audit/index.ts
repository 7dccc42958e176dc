export { checkShoeChain } from './check-chain';
export { exportAudit, shoeProof } from './export-audit';
export { playerHistory } from './player-history';
export { recallPlayerRounds } from './player-rounds';
export { ledgerEntries, loadPositionLedger } from './replay/ledger';
export { replayRound } from './replay-round';
