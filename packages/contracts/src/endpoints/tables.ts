import type { EndpointContract } from '../endpoint-contract';
import { Scoreboard, ScoreboardQuery } from '../scoreboard';
import {
  AvailabilityLog,
  AvailabilityParams,
  AvailabilityQuery,
  AvailabilityRequest,
  CadenceControlRequest,
  CreateTableRequest,
  LiveEvents,
  LiveQuery,
  SeatMap,
  Table,
  TableEvents,
  TableParams,
  UnlockTableRequest,
} from '../tables';

/** The endpoint contracts of the Tables tag: tables and their results panel (one export per endpoint: endpoint-contract.ts). */

export const createTableContract = {
  tag: 'Tables',
  description:
    'Creates a table from a preset (mini, midi, full) with optional overrides; the configuration is validated as a whole. Admin keys only.',
  problems: ['TABLE_CONFIG_INVALID'],
  summary: 'Create a table from a preset (admin)',
  body: CreateTableRequest,
  response: Table,
  status: 201,
} satisfies EndpointContract;

export const getTableContract = {
  tag: 'Tables',
  description: 'A table with its configuration, its shoe in play and its round in play.',
  problems: ['TABLE_NOT_FOUND'],
  summary: 'Read a table',
  params: TableParams,
  response: Table,
  status: 200,
} satisfies EndpointContract;

export const getScoreboardContract = {
  tag: 'Tables',
  description:
    "The coups of one shoe and the roads drawn from them. Default: the table's current shoe — after a close the table has none, and the answer is empty (`shoeId: null`): pass `shoeId` to see a closed shoe's.",
  problems: ['TABLE_NOT_FOUND', 'SHOE_NOT_FOUND'],
  summary: "The results panel (bead plate, big road, derived roads) of the table's current shoe",
  params: TableParams,
  query: ScoreboardQuery,
  response: Scoreboard,
  status: 200,
} satisfies EndpointContract;

export const getSeatsContract = {
  tag: 'Tables',
  description:
    "The table's seats and who holds them, read for the round open now (else the next one). A holder who sat out more than 3 coups (no stake left at no va más) is `idle`: his seat goes to the first player who claims it with a bet's `seat` (seed 004). Every other player bets standing.",
  problems: ['TABLE_NOT_FOUND'],
  summary: 'The seat map of a table',
  params: TableParams,
  response: SeatMap,
  status: 200,
} satisfies EndpointContract;

export const unlockTableContract = {
  tag: 'Tables',
  description:
    'Clears the lock a key-service or randomness failure put on the table (docs/regulators.md, "Lock-out"), once the cause is fixed, with a reason recorded in the TABLE_UNLOCKED event. Admin keys only.',
  problems: [
    'TABLE_NOT_FOUND',
    'TABLE_NOT_LOCKED',
    'AUDIT_LOCK_NEEDS_SHOE',
    'INVALID_INPUT',
    'CONCURRENT_UPDATE',
  ],
  summary: 'Clear a table lock with a reason (admin)',
  params: TableParams,
  body: UnlockTableRequest,
  response: Table,
  status: 200,
} satisfies EndpointContract;

export const listTableEventsContract = {
  tag: 'Tables',
  description:
    "The table's own audit events in order: each TABLE_LOCKED (what failed, where, when) and the TABLE_UNLOCKED that cleared it (reason, by which key role).",
  problems: ['TABLE_NOT_FOUND'],
  summary: "A table's lock-outs and their clearing",
  params: TableParams,
  response: TableEvents,
  status: 200,
} satisfies EndpointContract;

export const controlCadenceContract = {
  tag: 'Tables',
  description:
    'A table that runs itself (docs/architecture.md, "Table cadence"): `start` with `cadence` settings opens a round, waits for `closesAt`, calls "no va más", deals, settles and opens the next, shoe after shoe (AWS Step Functions, one execution per round). Settings whose rounds would start less than 5 s apart are refused (UKGC RTS 14G). `pause` lets the round in play finish and opens no new one; `resume` goes on; with `nextShoe: false` the cadence pauses when the shoe ends, and starting or resuming it needs a shoe in play; `stop` also removes the settings (operator calls again). Operator and admin keys.',
  problems: [
    'TABLE_NOT_FOUND',
    'CADENCE_TOO_FAST',
    'CADENCE_NOT_SET',
    'ROUND_IN_PLAY',
    'NO_SHOE_OPEN',
    'INVALID_INPUT',
    'TABLE_LOCKED',
    'CONCURRENT_UPDATE',
  ],
  summary: "Start, pause, resume or stop a table's cadence",
  params: TableParams,
  body: CadenceControlRequest,
  response: Table,
  status: 200,
} satisfies EndpointContract;

export const listLiveEventsContract = {
  tag: 'Tables',
  description:
    "The table's live events after `after`, in seq order: what its MQTT topic carried, so a client that reconnects (or sees a gap in seq) fetches what it missed. Players: with a token for this table (or for none).",
  problems: ['TABLE_NOT_FOUND'],
  summary: "A table's live events by sequence number (catch-up)",
  params: TableParams,
  query: LiveQuery,
  response: LiveEvents,
  status: 200,
} satisfies EndpointContract;

export const setTableAvailabilityContract = {
  tag: 'Tables',
  description:
    'Switches the table — or one of its pair or side bets (`betType`) — off or back on, by a named person with a reason: a TABLE_DISABLED / TABLE_ENABLED / BET_DISABLED / BET_ENABLED event in the table\'s events, its live feed, the regulator feed and the Game Availability Log (docs/regulators.md, "Game availability"). Off, gracefully: a round taking bets gets its "no va más" now (no new bet), and it and any round in play are dealt and settled as usual; no shoe and no round opens after it (409 TABLE_DISABLED), a cadence opens none (it goes on when the table is back on). A bet switched off is refused from the next round. Operator and admin keys.',
  problems: [
    'TABLE_NOT_FOUND',
    'AVAILABILITY_UNCHANGED',
    'BET_SIDE_DISABLED',
    'INVALID_INPUT',
    'TABLE_LOCKED',
    'CONCURRENT_UPDATE',
  ],
  summary: 'Switch a table, or one of its pair or side bets, off or on',
  params: TableParams,
  body: AvailabilityRequest,
  response: Table,
  status: 200,
} satisfies EndpointContract;

export const availabilityLogContract = {
  tag: 'Tables',
  description:
    "The Game Availability Log (NJ 13:69O-1.8(f), PA 811a.7(f), AGCO 4.02(8)): every availability change of the operator's tables in `[from, to)` — when, which table or bet, off or on, why, the named person and the API key. Regulators name a supervised operator; operators and admins their own.",
  problems: ['OPERATOR_NOT_FOUND', 'INVALID_INPUT'],
  summary: "An operator's Game Availability Log over a time range",
  params: AvailabilityParams,
  query: AvailabilityQuery,
  response: AvailabilityLog,
  status: 200,
} satisfies EndpointContract;
