import type { EndpointContract } from './endpoint-contract';
import { getSigningKeyContract } from './endpoints/keys';
import { getOpenapiContract, getSeamlessOpenapiContract } from './endpoints/meta';
import {
  getKeyIdentityContract,
  getOperatorWalletContract,
  setOperatorWalletContract,
} from './endpoints/operators';
import {
  exportAuditContract,
  exportFeedContract,
  getFeedFileContract,
  ggrReportContract,
  listFeedFilesContract,
  playerRoundsContract,
  replayRoundContract,
  seamlessReportContract,
  seamlessTransactionsContract,
} from './endpoints/regulators';
import {
  cancelBetsContract,
  closeBettingContract,
  getRoundContract,
  leaveTableContract,
  openRoundContract,
  placeBetContract,
  reduceBetsContract,
  resolveRoundContract,
  voidRoundContract,
} from './endpoints/rounds';
import {
  endSessionContract,
  launchPlayerContract,
  openSessionContract,
  refreshSessionContract,
  revokePlayerSessionsContract,
} from './endpoints/sessions';
import {
  abandonShoeContract,
  closeShoeContract,
  contributeSeedContract,
  getProofContract,
  getShoeContract,
  listShoesContract,
  openShoeContract,
} from './endpoints/shoes';
import { getTableHelpContract } from './endpoints/table-help';
import {
  availabilityLogContract,
  controlCadenceContract,
  createTableContract,
  getScoreboardContract,
  getSeatsContract,
  getTableContract,
  listLiveEventsContract,
  listTableEventsContract,
  setTableAvailabilityContract,
  unlockTableContract,
} from './endpoints/tables';
import {
  getLedgerContract,
  getResponsibleGamingContract,
  getWalletContract,
  playerHistoryContract,
  setResponsibleGamingContract,
  walletTransactionContract,
} from './endpoints/wallets';

/**
 * Every endpoint's contract, keyed by its handler name in functions/src/routes.ts: the OpenAPI
 * document is built from it (openapi.ts), and the tests walk it. Assembled from the very objects the
 * handlers import (`endpoints/<tag>.ts`, one export per endpoint), so what the document says is what
 * the handlers validate. Not exported by the package's index: a handler that imported it would parse
 * every endpoint's schemas at its cold start (its own is `<endpoint>Contract`, see
 * endpoint-contract.ts); `.dependency-cruiser.cjs` forbids it and test/contracts/bundles.test.ts
 * checks a bundle.
 */
export const ENDPOINTS = {
  'create-table': createTableContract,
  'get-table': getTableContract,
  'get-scoreboard': getScoreboardContract,
  'get-seats': getSeatsContract,
  'get-table-help': getTableHelpContract,
  'unlock-table': unlockTableContract,
  'list-table-events': listTableEventsContract,
  'set-table-availability': setTableAvailabilityContract,
  'availability-log': availabilityLogContract,
  'control-cadence': controlCadenceContract,
  'list-live-events': listLiveEventsContract,
  'open-shoe': openShoeContract,
  'get-shoe': getShoeContract,
  'close-shoe': closeShoeContract,
  'abandon-shoe': abandonShoeContract,
  'contribute-seed': contributeSeedContract,
  'list-shoes': listShoesContract,
  'get-proof': getProofContract,
  'open-round': openRoundContract,
  'get-round': getRoundContract,
  'place-bet': placeBetContract,
  'reduce-bets': reduceBetsContract,
  'cancel-bets': cancelBetsContract,
  'close-betting': closeBettingContract,
  'resolve-round': resolveRoundContract,
  'void-round': voidRoundContract,
  'leave-table': leaveTableContract,
  'get-wallet': getWalletContract,
  'wallet-transaction': walletTransactionContract,
  'get-ledger': getLedgerContract,
  'set-responsible-gaming': setResponsibleGamingContract,
  'get-responsible-gaming': getResponsibleGamingContract,
  'replay-round': replayRoundContract,
  'player-rounds': playerRoundsContract,
  'player-history': playerHistoryContract,
  'export-audit': exportAuditContract,
  'ggr-report': ggrReportContract,
  'export-feed': exportFeedContract,
  'list-feed-files': listFeedFilesContract,
  'get-feed-file': getFeedFileContract,
  'seamless-transactions': seamlessTransactionsContract,
  'seamless-report': seamlessReportContract,
  'get-key-identity': getKeyIdentityContract,
  'get-operator-wallet': getOperatorWalletContract,
  'set-operator-wallet': setOperatorWalletContract,
  'get-signing-key': getSigningKeyContract,
  'get-seamless-openapi': getSeamlessOpenapiContract,
  'launch-player': launchPlayerContract,
  'open-session': openSessionContract,
  'refresh-session': refreshSessionContract,
  'end-session': endSessionContract,
  'revoke-player-sessions': revokePlayerSessionsContract,
  'get-openapi': getOpenapiContract,
} satisfies Record<string, EndpointContract>;

export type EndpointName = keyof typeof ENDPOINTS;
