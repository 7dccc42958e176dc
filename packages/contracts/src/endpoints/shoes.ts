import type { EndpointContract } from '../endpoint-contract';
import { ShoeProof } from '../replay';
import {
  AbandonShoeRequest,
  CloseShoeRequest,
  ContributeSeedRequest,
  Contribution,
  OpenShoeRequest,
  Shoe,
  ShoePage,
  ShoeParams,
  TableShoesParams,
  TableShoesQuery,
} from '../shoes';
import { TableParams } from '../tables';

/** The endpoint contracts of the Shoes tag: provably fair shoes (one export per endpoint: endpoint-contract.ts). */

export const openShoeContract = {
  tag: 'Shoes',
  description:
    'Draws a server seed (sealed by the key service), publishes its SHA-256 commitment in a signed statement and starts the audit chain. One shoe in play per table (409 SHOE_ALREADY_OPEN says how to close the one in play, or to abandon it when its chain broke at close). Admin keys only.',
  problems: [
    'TABLE_NOT_FOUND',
    'SHOE_ALREADY_OPEN',
    'SIGNING_KEY_UNCERTIFIED',
    'TABLE_LOCKED',
    'KEY_SERVICE_UNAVAILABLE',
  ],
  summary: 'Open a new shoe: seed sealed, commitment signed and published (admin)',
  params: TableParams,
  body: OpenShoeRequest,
  response: Shoe,
  status: 201,
} satisfies EndpointContract;

export const getShoeContract = {
  tag: 'Shoes',
  description: 'A shoe: its signed statement and commitment; its server seed and cut once closed.',
  problems: ['SHOE_NOT_FOUND'],
  summary: 'Read a shoe (seed revealed once closed)',
  params: ShoeParams,
  response: Shoe,
  status: 200,
} satisfies EndpointContract;

export const closeShoeContract = {
  tag: 'Shoes',
  description:
    'Re-walks the audit chain (a chain that does not hold is not signed: 409 AUDIT_CHAIN_BROKEN, and the table is locked with a TABLE_LOCKED event of source AUDIT until the shoe is repaired and closed or abandoned), collects the deferred commission, reveals the server seed, appends SHOE_CLOSED and signs the chain head. A shoe the cut card has not ended (an interrupted session) closes only with a `reason` (422 CLOSE_REASON_REQUIRED). Resumable: call again after a failure. Admin keys only.',
  problems: [
    'SHOE_NOT_FOUND',
    'CLOSE_REASON_INVALID',
    'ROUND_IN_PLAY',
    'AUDIT_CHAIN_BROKEN',
    'SHOE_ABANDONED',
    'CONCURRENT_UPDATE',
    'CLOSE_REASON_REQUIRED',
    'SIGNING_KEY_UNCERTIFIED',
  ],
  summary: 'Close a shoe: reveal the seed, collect deferred commission, sign the audit head (admin)',
  params: ShoeParams,
  body: CloseShoeRequest,
  response: Shoe,
  status: 200,
} satisfies EndpointContract;

export const abandonShoeContract = {
  tag: 'Shoes',
  description:
    "Gives up a shoe whose close found its audit chain broken (409 AUDIT_CHAIN_BROKEN locked its table): the shoe becomes ABANDONED with the reason and the problems found, the table lets it go and its lock is cleared, and SHOE_ABANDONED is recorded in the table's events and the regulator feed. The seed is never revealed; replay and verify say ABANDONED. Any other shoe: 409 SHOE_NOT_ABANDONABLE. Admin keys only.",
  problems: [
    'SHOE_NOT_FOUND',
    'SHOE_NOT_ABANDONABLE',
    'SHOE_ABANDONED',
    'INVALID_INPUT',
    'CONCURRENT_UPDATE',
  ],
  summary: 'Abandon a shoe whose audit chain broke at close (admin)',
  params: ShoeParams,
  body: AbandonShoeRequest,
  response: Shoe,
  status: 200,
} satisfies EndpointContract;

export const contributeSeedContract = {
  tag: 'Shoes',
  problems: [
    'SEED_INVALID',
    'SHOE_NOT_FOUND',
    'SHOE_NOT_OPEN',
    'CONTRIBUTIONS_CLOSED',
    'CONTRIBUTIONS_FULL',
    'CONCURRENT_UPDATE',
  ],
  summary: "Add a player's seed to a shoe before its first round",
  description:
    "Each seed is recorded in order in the shoe's audit chain and mixed into its order: one seed nobody could foresee is enough. Opening the shoe's first round closes the contributions (409 CONTRIBUTIONS_CLOSED afterwards).",
  params: ShoeParams,
  body: ContributeSeedRequest,
  response: Contribution,
  status: 201,
} satisfies EndpointContract;

export const listShoesContract = {
  tag: 'Shoes',
  problems: ['TABLE_NOT_FOUND', 'CURSOR_INVALID'],
  summary: 'Every shoe of a table, by number (a page at a time)',
  description:
    "Numbers are gapless and each statement names the previous shoe's close head, so a shoe left out, or ended and never closed, shows.",
  params: TableShoesParams,
  query: TableShoesQuery,
  response: ShoePage,
  status: 200,
} satisfies EndpointContract;

export const getProofContract = {
  tag: 'Shoes',
  problems: ['SHOE_NOT_FOUND', 'SHOE_NOT_CLOSED', 'SHOE_ABANDONED', 'SHOE_NEVER_PLAYED'],
  summary: 'The public proof of a closed shoe (no key): `baccarat verify` checks it',
  description:
    'Statement and signature, key certificates, revealed seed, contributed seeds, beacon round, burn, cut, every coup, the signed heads and the audit chain with its signed close. Nothing personal: no player id, no amount. 409 SHOE_NOT_CLOSED before the shoe is closed.',
  params: ShoeParams,
  response: ShoeProof,
  status: 200,
} satisfies EndpointContract;
