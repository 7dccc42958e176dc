import type { EndpointContract } from '../endpoint-contract';
import { TableHelp } from '../table-help';
import { TableParams } from '../tables';

/** The help screen of a table (issue #28 item 6): its own module, beside endpoints/tables.ts. */
export const getTableHelpContract = {
  tag: 'Tables',
  description:
    "What a player must be shown before he bets: each bet the table offers with its pay table, its exact return to player (from the engine's exact odds for the table's decks and pay tables), the most it can win at the table's maximum stake, the rules (es, en) and the interrupted-game policy. Player tokens may read it.",
  problems: ['TABLE_NOT_FOUND'],
  summary: "A table's help screen: RTP per bet, maximum win, rules and interrupted-game policy",
  params: TableParams,
  response: TableHelp,
  status: 200,
} satisfies EndpointContract;
