import type { EndpointContract } from '../endpoint-contract';
import {
  CancelBetsRequest,
  LeaveParams,
  LeaveTableRequest,
  LeaveTableResponse,
  OpenRoundRequest,
  PlaceBetRequest,
  PlaceBetResponse,
  ReduceBetsRequest,
  ResolveRoundRequest,
  Round,
  RoundParams,
  VoidRoundRequest,
} from '../rounds';
import { TableParams } from '../tables';

/** The endpoint contracts of the Rounds tag: rounds (coups) and their bets (one export per endpoint: endpoint-contract.ts). */

export const openRoundContract = {
  tag: 'Rounds',
  description:
    "Opens the table's next round on its shoe (one in play per table); betting opens. The first round of a shoe closes its seed contributions (the operator's `clientSeed`, if given, is the last), records their digest and names the beacon round that will fix the order; its signed head is the shoe's `contributions.head`.",
  problems: [
    'CLIENT_SEED_INVALID',
    'TABLE_NOT_FOUND',
    'NO_SHOE_OPEN',
    'SHOE_ENDED',
    'ROUND_IN_PLAY',
    'CLIENT_SEED_ALREADY_FIXED',
    'CONTRIBUTIONS_FULL',
    'CONCURRENT_UPDATE',
    'SIGNING_KEY_UNCERTIFIED',
    'TABLE_LOCKED',
  ],
  summary: 'Open the next round (coup) of the table: betting opens',
  params: TableParams,
  body: OpenRoundRequest,
  response: Round,
  status: 201,
} satisfies EndpointContract;

export const getRoundContract = {
  tag: 'Rounds',
  description: 'A round: its status, its positions, and its coup once dealt.',
  problems: ['ROUND_NOT_FOUND'],
  summary: 'Read a round, its positions and its result',
  params: RoundParams,
  response: Round,
  status: 200,
} satisfies EndpointContract;

export const placeBetContract = {
  tag: 'Rounds',
  description:
    "Adds bets to the player's position: the wallet is debited and the position written in one conditional transaction. The Idempotency-Key keys the ledger entry: a retry with it replays the first answer.",
  problems: [
    'ROUND_NOT_FOUND',
    'ROUND_NOT_OPEN',
    'WALLET_NOT_FOUND',
    'SEAT_INVALID',
    'SEAT_TAKEN',
    'SEAT_MISMATCH',
    'ALREADY_SEATED',
    'CURRENCY_MISMATCH',
    'BET_EMPTY',
    'BET_AMOUNT_INVALID',
    'BET_PLAYER_AND_BANKER',
    'BET_DUPLICATE_TYPE',
    'BET_BELOW_MIN',
    'BET_ABOVE_MAX',
    'BET_SIDE_DISABLED',
    'INSUFFICIENT_FUNDS',
    'AMOUNT_TOO_LARGE',
    'POSITION_CALL_LIMIT',
    'WALLET_REFUSED',
    'WALLET_UNAVAILABLE',
    'WALLET_MODE_MISMATCH',
    'SEAMLESS_DEBIT_IN_FLIGHT',
    'CONCURRENT_UPDATE',
  ],
  summary: "Place a player's bets for the round (wallet debited atomically)",
  params: RoundParams,
  body: PlaceBetRequest,
  response: PlaceBetResponse,
  status: 201,
} satisfies EndpointContract;

export const reduceBetsContract = {
  tag: 'Rounds',
  description:
    'Takes an amount off each named bet of the player\'s position before "no va más" (down to 0 withdraws it); the difference goes back to the wallet as a BET_WITHDRAWAL ledger entry (a seamless operator: as a REFUND credit to its wallet, written to the outbox), in one conditional transaction keyed by the Idempotency-Key. What stays keeps the table\'s rules.',
  problems: [
    'ROUND_NOT_FOUND',
    'ROUND_NOT_OPEN',
    'WALLET_NOT_FOUND',
    'BET_EMPTY',
    'BET_AMOUNT_INVALID',
    'BET_DUPLICATE_TYPE',
    'BET_BELOW_MIN',
    'BET_NOT_PLACED',
    'BET_REDUCE_TOO_LARGE',
    'POSITION_CALL_LIMIT',
    'WALLET_MODE_MISMATCH',
    'CONCURRENT_UPDATE',
  ],
  summary: 'Reduce a player\'s bets before "no va más" (the difference back to the wallet)',
  params: RoundParams,
  body: ReduceBetsRequest,
  response: PlaceBetResponse,
  status: 200,
} satisfies EndpointContract;

export const cancelBetsContract = {
  tag: 'Rounds',
  description:
    'Withdraws the named bet types whole (every bet when `types` is omitted) before "no va más"; the stake goes back to the wallet as a BET_WITHDRAWAL ledger entry (a seamless operator: as a REFUND credit to its wallet, written to the outbox), in one conditional transaction keyed by the Idempotency-Key.',
  problems: [
    'ROUND_NOT_FOUND',
    'ROUND_NOT_OPEN',
    'WALLET_NOT_FOUND',
    'BET_EMPTY',
    'BET_DUPLICATE_TYPE',
    'BET_BELOW_MIN',
    'BET_NOT_PLACED',
    'POSITION_CALL_LIMIT',
    'WALLET_MODE_MISMATCH',
    'CONCURRENT_UPDATE',
  ],
  summary: 'Withdraw a player\'s bets before "no va más" (the stake back to the wallet)',
  params: RoundParams,
  body: CancelBetsRequest,
  response: PlaceBetResponse,
  status: 200,
} satisfies EndpointContract;

export const resolveRoundContract = {
  tag: 'Rounds',
  description:
    'Closes betting, commits the bets, deals the coup from the shoe and settles every position exactly once: in the request up to 50 positions (SETTLED), else handed to the settlement queue in batches after the answer (SETTLING: read the round until it is SETTLED). The round’s signed head (its receipt) is made when the last position is settled. Resumable and idempotent: a settled round is answered as it is; called again on a SETTLING round it finishes it, or re-sends the batches not done once overdue.',
  problems: [
    'ROUND_NOT_FOUND',
    'ROUND_VOIDED',
    'CONCURRENT_UPDATE',
    'BEACON_PENDING',
    'SIGNING_KEY_UNCERTIFIED',
    'TABLE_LOCKED',
    'KEY_SERVICE_UNAVAILABLE',
  ],
  summary:
    '"No va más": close betting, deal the coup and settle every position (SETTLING: in batches, after the answer)',
  params: RoundParams,
  body: ResolveRoundRequest,
  response: Round,
  status: 200,
} satisfies EndpointContract;

export const closeBettingContract = {
  tag: 'Rounds',
  description:
    '"No va más" as a call of its own: betting closes (a bet after it is refused), the bets are committed by their digest, and on a pyb-shoe/3 shoe the beacon round the coup\'s cards will be drawn from is named and the chain head after it signed — answered before that round is published, so you hold the receipt before anyone, the platform included, can know the cards. Then resolve deals and settles. Idempotent: called again, it answers the same.',
  problems: [
    'ROUND_NOT_FOUND',
    'ROUND_VOIDED',
    'CONCURRENT_UPDATE',
    'SIGNING_KEY_UNCERTIFIED',
    'TABLE_LOCKED',
    'KEY_SERVICE_UNAVAILABLE',
  ],
  summary: '"No va más": close betting and get the signed receipt naming the beacon round',
  params: RoundParams,
  body: ResolveRoundRequest,
  response: Round,
  status: 200,
} satisfies EndpointContract;

export const voidRoundContract = {
  tag: 'Rounds',
  description:
    "Before the deal: refunds every stake exactly once and records the reason (and note) in the audit chain. With `burnCards` (a dealer error exposed the coup's cards, seed 004) the cards the coup would have used are burned too, and ROUND_VOIDED records them. Resumable.",
  problems: [
    'ROUND_NOT_FOUND',
    'ROUND_ALREADY_DEALT',
    'VOID_REASON_INVALID',
    'CONCURRENT_UPDATE',
    'SIGNING_KEY_UNCERTIFIED',
  ],
  summary: 'Void a round: every stake refunded, reason recorded in the audit trail',
  params: RoundParams,
  body: VoidRoundRequest,
  response: Round,
  status: 200,
} satisfies EndpointContract;

export const leaveTableContract = {
  tag: 'Rounds',
  description:
    'Collects the deferred commission the player owes for the shoe in play, and answers his balance.',
  problems: ['TABLE_NOT_FOUND', 'WALLET_NOT_FOUND', 'CONCURRENT_UPDATE', 'WALLET_UNAVAILABLE'],
  summary: 'A player leaves the table: his deferred commission is collected',
  params: LeaveParams,
  body: LeaveTableRequest,
  response: LeaveTableResponse,
  status: 200,
} satisfies EndpointContract;
