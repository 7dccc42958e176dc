/**
 * The one list of endpoints. The local HTTP server routes with it, the CDK app creates one
 * NodejsFunction and one HTTP API route per entry from it, and the auth-matrix test walks it.
 * Each route is an export of its own (`<handler>Route`, e.g. `getWalletRoute`) that `ROUTES` lists:
 * a handler passes its own to `httpHandler` (http.ts) and its bundle holds that entry, not the
 * table of every function's grants.
 *
 * `handler` is the folder under functions/ holding `handler.ts` (export `handler`).
 * `roles` are the API-key roles allowed to call it; an empty list means public (no key). `data` and `kms` are the least-privilege grants
 * the deployed function gets (infra reads them; nothing else should).
 */
import { ROLES, type Role } from '@pyb/contracts';

export type { Role };
/**
 * `append`: read, and put new items only (no update, no delete): the audit table, whose items are
 * written once (docs/data-model.md) — so a writer role cannot rewrite history, only add to it.
 */
export type TableAccess = 'read' | 'write' | 'append';
export type KmsOperation = 'GenerateRandom' | 'Encrypt' | 'Decrypt' | 'Sign' | 'GetPublicKey';
/** Logical DynamoDB tables (docs/data-model.md). */
export type DataTable = 'game' | 'wallets' | 'audit' | 'principals' | 'idempotency' | 'sessions';

/**
 * Queues a function may send to (infra grants sqs:SendMessage and names the queue in its env).
 * `outbox`: seamless-wallet credits and rollbacks to deliver (docs/seamless-wallet.md).
 */
export type QueueName = 'settlement' | 'outbox';

/** Buckets a function reads (infra grants s3:GetObject and s3:ListBucket on the bucket's prefix, names it in env). */
export type BucketName = 'feed';

/**
 * A route that admits player access tokens (docs/api.md, "Player sessions"). `playerIn`: where the route
 * names its player — the path or the body; it must be the token's (else 403 PLAYER_NOT_ALLOWED). Without
 * it the route names no player (a table's facts, the logout).
 */
export interface PlayerAccess {
  playerIn?: 'path' | 'body';
}

/**
 * The player-token key a function uses (infra grants it on the token key, names it TOKEN_KEY_ID):
 * `verify` (kms:GetPublicKey), `sign` (and kms:Sign: the session routes that issue tokens).
 */
export type TokenKeyUse = 'verify' | 'sign';

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  handler: string;
  roles: readonly Role[];
  /** Player access tokens are admitted too (a route with no `roles` and this takes player tokens only). */
  players?: PlayerAccess;
  /**
   * The request spends a single-use credential of its own (a launch or refresh token, a logout): no
   * Idempotency-Key and no stored answer (a replay must be refused, not answered again).
   */
  singleUse?: true;
  tokens?: TokenKeyUse;
  data: Partial<Record<DataTable, TableAccess>>;
  kms: readonly KmsOperation[];
  /**
   * The use case is itself idempotent on the client's key (the ledger entry under it is the record):
   * the HTTP Idempotency-Key lock and stored answer are not used (one mechanism on the bet path).
   */
  ownIdempotency?: true;
  queues?: readonly QueueName[];
  buckets?: readonly BucketName[];
  /**
   * Calls seamless operators' wallets (debit, credit, rollback): reads their signing secrets in
   * Secrets Manager (infra grants secretsmanager:GetSecretValue on each seamless operator's secret).
   */
  operatorWallets?: true;
  /**
   * Starts a cadence table's round (infra grants states:StartExecution on the cadence state machine
   * and names it CADENCE_STATE_MACHINE_ARN: docs/architecture.md, "Table cadence").
   */
  cadence?: true;
}

const ALL: readonly Role[] = ROLES;
const WRITERS: readonly Role[] = ['operator', 'admin'];

export const createTableRoute: Route = {
  method: 'POST',
  path: '/v1/tables',
  handler: 'create-table',
  roles: ['admin'],
  data: { principals: 'read', idempotency: 'write', game: 'write', audit: 'append' },
  kms: [],
};

export const getTableRoute: Route = {
  method: 'GET',
  path: '/v1/tables/{tableId}',
  handler: 'get-table',
  roles: ALL,
  players: {},
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'read' },
  kms: [],
};

export const unlockTableRoute: Route = {
  method: 'POST',
  path: '/v1/tables/{tableId}/unlock',
  handler: 'unlock-table',
  roles: ['admin'],
  // The table item and its TABLE_UNLOCKED event (append-only, beside the shoes' chains).
  data: { principals: 'read', idempotency: 'write', game: 'write', audit: 'append' },
  kms: [],
};

export const controlCadenceRoute: Route = {
  method: 'POST',
  path: '/v1/tables/{tableId}/cadence',
  handler: 'control-cadence',
  roles: WRITERS,
  // The table item (its cadence); start and resume start the next round's execution.
  data: { principals: 'read', idempotency: 'write', game: 'write' },
  kms: [],
  cadence: true,
};

export const setTableAvailabilityRoute: Route = {
  method: 'POST',
  path: '/v1/tables/{tableId}/availability',
  handler: 'set-table-availability',
  roles: WRITERS,
  // The table item and its availability event (beside the shoes' chains); taking the table off closes
  // the open round's betting (Sign: its receipt naming the beacon round); putting a cadence table back
  // starts its next round's execution.
  data: { principals: 'read', idempotency: 'write', game: 'write', audit: 'append' },
  kms: ['Sign', 'GetPublicKey'],
  cadence: true,
};

export const availabilityLogRoute: Route = {
  method: 'GET',
  path: '/v1/operators/{operatorId}/availability',
  handler: 'availability-log',
  roles: ALL,
  // The operator's tables (game) and their events (audit).
  data: { principals: 'read', game: 'read', audit: 'read' },
  kms: [],
};

export const listTableEventsRoute: Route = {
  method: 'GET',
  path: '/v1/tables/{tableId}/events',
  handler: 'list-table-events',
  roles: ALL,
  data: { principals: 'read', game: 'read', audit: 'read' },
  kms: [],
};

export const listLiveEventsRoute: Route = {
  method: 'GET',
  path: '/v1/tables/{tableId}/live',
  handler: 'list-live-events',
  roles: ALL,
  players: {},
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'read' },
  kms: [],
};

export const ggrReportRoute: Route = {
  method: 'GET',
  path: '/v1/operators/{operatorId}/ggr',
  handler: 'ggr-report',
  roles: ALL,
  data: { principals: 'read', game: 'read' },
  kms: [],
};

export const exportFeedRoute: Route = {
  method: 'GET',
  path: '/v1/operators/{operatorId}/feed',
  handler: 'export-feed',
  roles: ALL,
  // The rounds and shoes (game), the ledger (wallets), the tables' own events (audit).
  data: { principals: 'read', game: 'read', wallets: 'read', audit: 'read' },
  kms: [],
};

export const seamlessTransactionsRoute: Route = {
  method: 'GET',
  path: '/v1/operators/{operatorId}/seamless-transactions',
  handler: 'seamless-transactions',
  roles: ALL,
  // The seamless transaction records (and their listing index) are in the game table.
  data: { principals: 'read', game: 'read' },
  kms: [],
};

export const listFeedFilesRoute: Route = {
  method: 'GET',
  path: '/v1/operators/{operatorId}/feed/files',
  handler: 'list-feed-files',
  roles: ALL,
  data: { principals: 'read' },
  kms: [],
  buckets: ['feed'],
};

export const getFeedFileRoute: Route = {
  method: 'GET',
  path: '/v1/operators/{operatorId}/feed/files/{date}/{name}',
  handler: 'get-feed-file',
  roles: ALL,
  data: { principals: 'read' },
  kms: [],
  buckets: ['feed'],
};

export const seamlessReportRoute: Route = {
  method: 'GET',
  path: '/v1/operators/{operatorId}/seamless-reports/{date}',
  handler: 'seamless-report',
  roles: ALL,
  data: { principals: 'read', game: 'read' },
  kms: [],
};

/** The calling API key (a console reads it once to offer only the controls the key may use). */
export const getKeyIdentityRoute: Route = {
  method: 'GET',
  path: '/v1/me',
  handler: 'get-key-identity',
  roles: ALL,
  data: { principals: 'read' },
  kms: [],
};

export const getOperatorWalletRoute: Route = {
  method: 'GET',
  path: '/v1/operators/{operatorId}/wallet',
  handler: 'get-operator-wallet',
  roles: ALL,
  // The operator record (game table) and its changes (audit table).
  data: { principals: 'read', game: 'read', audit: 'read' },
  kms: [],
};

export const setOperatorWalletRoute: Route = {
  method: 'POST',
  path: '/v1/operators/{operatorId}/wallet',
  handler: 'set-operator-wallet',
  // Admin keys reach the use case; it lets platform-admin keys only through (Actor.platform).
  roles: ['admin'],
  // Reads the operator's tables, open rounds' positions and seamless transactions (is it quiet?),
  // writes the operator record; each change appended to the audit table in the same transaction.
  data: { principals: 'read', idempotency: 'write', game: 'write', audit: 'append' },
  kms: [],
};

export const getScoreboardRoute: Route = {
  method: 'GET',
  path: '/v1/tables/{tableId}/scoreboard',
  handler: 'get-scoreboard',
  roles: ALL,
  players: {},
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'read' },
  kms: [],
};

/** The help screen a game client shows (issue #28 item 6): read by player tokens too. */
export const getTableHelpRoute: Route = {
  method: 'GET',
  path: '/v1/tables/{tableId}/help',
  handler: 'get-table-help',
  roles: ALL,
  players: {},
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'read' },
  kms: [],
};

export const getSeatsRoute: Route = {
  method: 'GET',
  path: '/v1/tables/{tableId}/seats',
  handler: 'get-seats',
  roles: ALL,
  data: { principals: 'read', game: 'read' },
  kms: [],
};

export const openShoeRoute: Route = {
  method: 'POST',
  path: '/v1/tables/{tableId}/shoes',
  handler: 'open-shoe',
  roles: ['admin'],
  data: { principals: 'read', idempotency: 'write', game: 'write', audit: 'append' },
  kms: ['GenerateRandom', 'Encrypt', 'Sign', 'GetPublicKey'],
};

export const listShoesRoute: Route = {
  method: 'GET',
  path: '/v1/tables/{tableId}/shoes',
  handler: 'list-shoes',
  roles: ALL,
  data: { principals: 'read', game: 'read' },
  kms: [],
};

export const contributeSeedRoute: Route = {
  method: 'POST',
  path: '/v1/shoes/{shoeId}/contributions',
  handler: 'contribute-seed',
  roles: WRITERS,
  data: { principals: 'read', idempotency: 'write', game: 'write', audit: 'append' },
  // Sign: the contributor's receipt (the head after his seed, C1). Nothing sealed or unsealed here.
  kms: ['Sign', 'GetPublicKey'],
};

export const getProofRoute: Route = {
  method: 'GET',
  path: '/v1/shoes/{shoeId}/proof',
  handler: 'get-proof',
  roles: [],
  data: { game: 'read', audit: 'read' },
  kms: [],
};

export const getShoeRoute: Route = {
  method: 'GET',
  path: '/v1/shoes/{shoeId}',
  handler: 'get-shoe',
  roles: ALL,
  // The game page shows the shoe's commitment (published before any bet): every fact of the view is public.
  players: {},
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'read' },
  kms: [],
};

export const closeShoeRoute: Route = {
  method: 'POST',
  path: '/v1/shoes/{shoeId}/close',
  handler: 'close-shoe',
  roles: ['admin'],
  data: { principals: 'read', idempotency: 'write', game: 'write', wallets: 'write', audit: 'append' },
  kms: ['Decrypt', 'Sign', 'GetPublicKey'],
};

export const abandonShoeRoute: Route = {
  method: 'POST',
  path: '/v1/shoes/{shoeId}/abandon',
  handler: 'abandon-shoe',
  roles: ['admin'],
  data: { principals: 'read', idempotency: 'write', game: 'write', audit: 'append' },
  kms: [],
};

export const openRoundRoute: Route = {
  method: 'POST',
  path: '/v1/tables/{tableId}/rounds',
  handler: 'open-round',
  roles: WRITERS,
  // The first round closes the seed contributions and signs that head (kms:Sign).
  data: { principals: 'read', idempotency: 'write', game: 'write', audit: 'append' },
  kms: ['Sign', 'GetPublicKey'],
};

export const getRoundRoute: Route = {
  method: 'GET',
  path: '/v1/rounds/{roundId}',
  handler: 'get-round',
  roles: ALL,
  players: {},
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'read' },
  kms: [],
};

export const placeBetRoute: Route = {
  method: 'POST',
  path: '/v1/rounds/{roundId}/bets',
  handler: 'place-bet',
  roles: WRITERS,
  // The bet path: the wallet, its ledger entry (the idempotency record), the position, the gate check
  // and the seat; no audit event and no HTTP idempotency item.
  players: { playerIn: 'body' },
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'write', wallets: 'write' },
  kms: [],
  ownIdempotency: true,
  queues: ['outbox'],
  operatorWallets: true,
};

export const reduceBetsRoute: Route = {
  method: 'POST',
  path: '/v1/rounds/{roundId}/bets/reduce',
  handler: 'reduce-bets',
  roles: WRITERS,
  players: { playerIn: 'body' },
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'write', wallets: 'write' },
  kms: [],
  ownIdempotency: true,
  // Seamless: the refund credit, delivered in the request (the wallet's secret), else to the outbox.
  queues: ['outbox'],
  operatorWallets: true,
};

export const cancelBetsRoute: Route = {
  method: 'POST',
  path: '/v1/rounds/{roundId}/bets/cancel',
  handler: 'cancel-bets',
  roles: WRITERS,
  players: { playerIn: 'body' },
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'write', wallets: 'write' },
  kms: [],
  ownIdempotency: true,
  // Seamless: the refund credit, delivered in the request (the wallet's secret), else to the outbox.
  queues: ['outbox'],
  operatorWallets: true,
};

export const closeBettingRoute: Route = {
  method: 'POST',
  path: '/v1/rounds/{roundId}/close',
  handler: 'close-betting',
  roles: WRITERS,
  data: { principals: 'read', idempotency: 'write', game: 'write', audit: 'append' },
  // Sign: the receipt naming the beacon round (pyb-shoe/3). No Decrypt: nothing is drawn here.
  kms: ['Sign', 'GetPublicKey'],
  queues: [],
};

export const resolveRoundRoute: Route = {
  method: 'POST',
  path: '/v1/rounds/{roundId}/resolve',
  handler: 'resolve-round',
  roles: WRITERS,
  data: { principals: 'read', idempotency: 'write', game: 'write', wallets: 'write', audit: 'append' },
  // Decrypt deals; Sign signs the round head it finishes (and the beacon step's pending receipts).
  kms: ['Decrypt', 'Sign', 'GetPublicKey'],
  queues: ['settlement', 'outbox'],
};

export const voidRoundRoute: Route = {
  method: 'POST',
  path: '/v1/rounds/{roundId}/void',
  handler: 'void-round',
  roles: WRITERS,
  data: { principals: 'read', idempotency: 'write', game: 'write', wallets: 'write', audit: 'append' },
  // Sign: the round head after ROUND_VOIDED, when the refunds finish in the request. Decrypt stays
  // (issue #24, K1): a dealer-error void (burnCards) burns cards drawn at the void itself — pyb-shoe/2
  // from the shoe order, pyb-shoe/3 from the seed and the void's own beacon round — and both come
  // from the unsealed seed: nothing stores the order or a burn in the clear for it to read instead.
  kms: ['Decrypt', 'Sign', 'GetPublicKey'],
  queues: ['settlement', 'outbox'],
};

export const replayRoundRoute: Route = {
  method: 'GET',
  path: '/v1/rounds/{roundId}/replay',
  handler: 'replay-round',
  roles: ['operator', 'regulator'],
  data: { principals: 'read', game: 'read', wallets: 'read', audit: 'read' },
  kms: ['GetPublicKey'],
};

export const leaveTableRoute: Route = {
  method: 'POST',
  path: '/v1/tables/{tableId}/players/{playerId}/leave',
  handler: 'leave-table',
  roles: WRITERS,
  data: { principals: 'read', idempotency: 'write', game: 'write', wallets: 'write', audit: 'append' },
  kms: [],
  queues: ['outbox'],
  // A seamless player's balance is the operator's wallet's answer (a signed balance call).
  operatorWallets: true,
};

export const playerRoundsRoute: Route = {
  method: 'GET',
  path: '/v1/players/{playerId}/rounds',
  handler: 'player-rounds',
  roles: ['operator', 'regulator'],
  // Each recalled round is replayed: its shoe's audit chain, and the keys that signed the shoe.
  players: { playerIn: 'path' },
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'read', wallets: 'read', audit: 'read' },
  kms: ['GetPublicKey'],
};

export const playerHistoryRoute: Route = {
  method: 'GET',
  path: '/v1/players/{playerId}/history',
  handler: 'player-history',
  roles: WRITERS,
  // The recall's replay of each round: its shoe's audit chain, and the keys that signed the shoe.
  players: { playerIn: 'path' },
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', game: 'read', wallets: 'read', audit: 'read' },
  kms: ['GetPublicKey'],
};

export const getWalletRoute: Route = {
  method: 'GET',
  path: '/v1/wallets/{playerId}',
  handler: 'get-wallet',
  roles: WRITERS,
  players: { playerIn: 'path' },
  tokens: 'verify',
  data: { principals: 'read', sessions: 'read', wallets: 'read' },
  kms: [],
};

export const walletTransactionRoute: Route = {
  method: 'POST',
  path: '/v1/wallets/{playerId}/transactions',
  handler: 'wallet-transaction',
  roles: WRITERS,
  data: { principals: 'read', idempotency: 'write', wallets: 'write', audit: 'append' },
  kms: [],
};

export const getLedgerRoute: Route = {
  method: 'GET',
  path: '/v1/wallets/{playerId}/ledger',
  handler: 'get-ledger',
  roles: ALL,
  data: { principals: 'read', wallets: 'read' },
  kms: [],
};

export const setResponsibleGamingRoute: Route = {
  method: 'POST',
  path: '/v1/wallets/{playerId}/responsible-gaming',
  handler: 'set-responsible-gaming',
  roles: WRITERS,
  // An RG_SETTINGS ledger entry of amount 0 with the wallet's new state (one transaction); the
  // entry under the client's key is the idempotency record (a replay answers the state now).
  // A self-exclusion or cooling-off also revokes the player's sessions (the sessions table) and
  // cancels his bets in rounds open for bets (the tables, rounds and positions: the game table).
  data: { principals: 'read', wallets: 'write', sessions: 'write', game: 'write' },
  kms: [],
  ownIdempotency: true,
};

export const getResponsibleGamingRoute: Route = {
  method: 'GET',
  path: '/v1/wallets/{playerId}/responsible-gaming',
  handler: 'get-responsible-gaming',
  roles: WRITERS,
  data: { principals: 'read', wallets: 'read' },
  kms: [],
};

export const exportAuditRoute: Route = {
  method: 'GET',
  path: '/v1/shoes/{shoeId}/audit',
  handler: 'export-audit',
  roles: ['operator', 'regulator'],
  // The keys come with their certificates from the audit table: no KMS call.
  data: { principals: 'read', game: 'read', wallets: 'read', audit: 'read' },
  kms: [],
};

export const getSigningKeyRoute: Route = {
  method: 'GET',
  path: '/v1/signing-key',
  handler: 'get-signing-key',
  roles: [],
  // The keys' certificates live in the audit table.
  data: { audit: 'read' },
  kms: ['GetPublicKey'],
};

export const getOpenapiRoute: Route = {
  method: 'GET',
  path: '/v1/openapi.json',
  handler: 'get-openapi',
  roles: [],
  data: {},
  kms: [],
};

export const getSeamlessOpenapiRoute: Route = {
  method: 'GET',
  path: '/v1/seamless-wallet.openapi.json',
  handler: 'get-seamless-openapi',
  roles: [],
  data: {},
  kms: [],
};

export const launchPlayerRoute: Route = {
  method: 'POST',
  path: '/v1/players/{playerId}/launch',
  handler: 'launch-player',
  roles: WRITERS,
  // The table it may be scoped to (game), the launch item (sessions).
  data: { principals: 'read', idempotency: 'write', game: 'read', sessions: 'write' },
  kms: [],
};

export const openSessionRoute: Route = {
  method: 'POST',
  path: '/v1/sessions',
  handler: 'open-session',
  roles: [],
  singleUse: true,
  data: { sessions: 'write' },
  kms: [],
  tokens: 'sign',
};

export const refreshSessionRoute: Route = {
  method: 'POST',
  path: '/v1/sessions/refresh',
  handler: 'refresh-session',
  roles: [],
  singleUse: true,
  data: { sessions: 'write' },
  kms: [],
  tokens: 'sign',
};

export const endSessionRoute: Route = {
  method: 'POST',
  path: '/v1/sessions/logout',
  handler: 'end-session',
  roles: [],
  players: {},
  singleUse: true,
  data: { sessions: 'write' },
  kms: [],
  tokens: 'verify',
};

export const revokePlayerSessionsRoute: Route = {
  method: 'POST',
  path: '/v1/players/{playerId}/sessions/revoke',
  handler: 'revoke-player-sessions',
  roles: WRITERS,
  data: { principals: 'read', idempotency: 'write', sessions: 'write' },
  kms: [],
};

export const ROUTES: readonly Route[] = [
  createTableRoute,
  getTableRoute,
  unlockTableRoute,
  controlCadenceRoute,
  listTableEventsRoute,
  setTableAvailabilityRoute,
  availabilityLogRoute,
  listLiveEventsRoute,
  ggrReportRoute,
  exportFeedRoute,
  seamlessTransactionsRoute,
  listFeedFilesRoute,
  getFeedFileRoute,
  seamlessReportRoute,
  getKeyIdentityRoute,
  getOperatorWalletRoute,
  setOperatorWalletRoute,
  getScoreboardRoute,
  getSeatsRoute,
  getTableHelpRoute,
  openShoeRoute,
  listShoesRoute,
  contributeSeedRoute,
  getProofRoute,
  getShoeRoute,
  closeShoeRoute,
  abandonShoeRoute,
  openRoundRoute,
  getRoundRoute,
  placeBetRoute,
  reduceBetsRoute,
  cancelBetsRoute,
  closeBettingRoute,
  resolveRoundRoute,
  voidRoundRoute,
  replayRoundRoute,
  leaveTableRoute,
  playerRoundsRoute,
  playerHistoryRoute,
  getWalletRoute,
  walletTransactionRoute,
  getLedgerRoute,
  setResponsibleGamingRoute,
  getResponsibleGamingRoute,
  exportAuditRoute,
  getSigningKeyRoute,
  getOpenapiRoute,
  getSeamlessOpenapiRoute,
  launchPlayerRoute,
  openSessionRoute,
  refreshSessionRoute,
  endSessionRoute,
  revokePlayerSessionsRoute,
];
