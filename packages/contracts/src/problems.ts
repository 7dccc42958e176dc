/**
 * The problem-code registry: every `code` an answer of the API can carry (application/problem+json,
 * RFC 9457), with its HTTP status and what it means. The core's DomainError and the HTTP layer take
 * their codes from here (a code not in it does not type-check), and the OpenAPI document lists, for
 * each route and status, the codes that route can answer (its contract's `problems` plus the ones the
 * HTTP layer adds; see `routeProblems`). Add a new code here first. Of the functions, only get-openapi
 * reads the statuses and descriptions: no other bundle holds them (test/contracts/bundles.test.ts).
 */
export const PROBLEMS = {
  // 400: the request itself is wrong.
  VALIDATION_FAILED: [
    400,
    'A path parameter, query parameter or body field breaks the schema; `errors` lists them.',
  ],
  MALFORMED_JSON: [400, 'The body is not JSON (or not UTF-8).'],
  IDEMPOTENCY_KEY_REQUIRED: [400, 'A POST without an Idempotency-Key header.'],
  IDEMPOTENCY_KEY_INVALID: [400, 'An Idempotency-Key that is not 1-255 visible ASCII characters.'],
  CURSOR_INVALID: [400, 'A cursor that is not one a previous page of this list gave.'],
  HISTORY_RANGE_INVALID: [400, 'A history range whose `to` is not after `from`, or longer than 366 days.'],
  SEAMLESS_RANGE_INVALID: [
    400,
    'A period of seamless transactions whose bounds are not UTC timestamps, or longer than 31 days.',
  ],
  FEED_RANGE_INVALID: [
    400,
    'A feed range that is not two UTC instants (or days, for a listing) with `from` before `to`.',
  ],
  INVALID_INPUT: [400, 'A value the use case refuses (ids, free text, limits), when called past the schema.'],
  CLIENT_SEED_INVALID: [400, 'A client seed that is not 1-256 UTF-8 bytes of clean text.'],
  SEED_INVALID: [400, 'A contributed seed that is not 1-256 UTF-8 bytes of clean text.'],
  CLOSE_REASON_INVALID: [400, 'A close reason that is not one of CloseReason.'],
  TABLE_CONFIG_INVALID: [
    400,
    'A table configuration the rules refuse (e.g. crossed limits); `details.issues` says why.',
  ],
  CADENCE_TOO_FAST: [
    400,
    'Cadence settings whose rounds would start less than 5 s apart (bettingSeconds + pauseSeconds < 5; UKGC RTS 14G).',
  ],
  VOID_REASON_INVALID: [
    400,
    'A void reason that is not one of VoidReason, or `burnCards` with a reason other than EXPOSED_CARD or EXTRA_CARDS.',
  ],
  AMOUNT_INVALID: [400, 'An amount that is not a positive safe integer of minor units.'],
  BET_EMPTY: [400, 'A bet call without bets, or with more than one per bet type.'],
  BET_AMOUNT_INVALID: [
    400,
    'A bet amount that is not a positive safe integer, or a stake beyond the safe range.',
  ],
  BET_TYPE_INVALID: [400, 'A bet type the engine does not know.'],
  SEAT_INVALID: [400, 'A seat number outside 1..seats of the table.'],
  OPERATOR_ID_INVALID: [400, 'An operator id outside the grammar (provisioning).'],
  SEAMLESS_CONFIG_INVALID: [
    400,
    "A seamless wallet that is not https (http only to a loopback host), or a secret that is not the operator's own (`…/seamless/<operatorId>`; `env:` only with a loopback wallet).",
  ],
  // 401, 403: the caller.
  API_KEY_MISSING: [401, 'No `Authorization: Bearer <key>` header.'],
  API_KEY_INVALID: [401, 'An unknown or revoked API key, or a malformed Authorization header.'],
  ROLE_NOT_ALLOWED: [403, "The key's role may not call this endpoint."],
  READ_ONLY: [403, 'A regulator key asked to change something.'],
  PLATFORM_ADMIN_REQUIRED: [403, "Only a platform-admin key may change an operator's wallet mode."],
  TOKEN_INVALID: [
    401,
    'A player token that does not verify (signature, issuer, audience, shape), or whose session is unknown.',
  ],
  TOKEN_EXPIRED: [401, 'A player access token past its `exp`, or a session past its 12 hours: launch again.'],
  TOKEN_REVOKED: [
    401,
    "The player's session was ended (logout) or revoked by the operator (POST /v1/players/{playerId}/sessions/revoke, a self-exclusion).",
  ],
  LAUNCH_TOKEN_INVALID: [401, 'No launch token of this value was issued.'],
  LAUNCH_TOKEN_EXPIRED: [
    401,
    'The launch token is older than its 60 seconds: ask the operator for a new launch.',
  ],
  LAUNCH_TOKEN_USED: [401, 'The launch token was already exchanged: a launch token opens one session only.'],
  REFRESH_TOKEN_INVALID: [401, 'No session has this refresh token.'],
  REFRESH_TOKEN_USED: [
    401,
    'A refresh token that was already spent: it was copied, so its session is ended (launch again).',
  ],
  PLAYER_NOT_ALLOWED: [
    403,
    "A player token acting for another player: the player is the token's, never the path's or the body's.",
  ],
  TOKEN_SCOPE_EXCEEDED: [403, "A table or currency outside the player token's scope."],
  // 404, 405: nothing there (another tenant's resource looks the same).
  TABLE_NOT_FOUND: [404, 'No such table (or one of another operator).'],
  SHOE_NOT_FOUND: [404, 'No such shoe (or one of another operator).'],
  ROUND_NOT_FOUND: [404, 'No such round (or one of another operator).'],
  WALLET_NOT_FOUND: [
    404,
    'No wallet for this player (or an operator the key may not read): the first CREDIT creates a hosted wallet.',
  ],
  PLAYER_NOT_FOUND: [404, 'No such player for this operator (game recall).'],
  OPERATOR_NOT_FOUND: [404, 'An operator the key may not read (not its own, nor one it supervises).'],
  FEED_FILE_NOT_FOUND: [404, 'No daily feed file of this name for this operator and day (yet).'],
  SEAMLESS_REPORT_NOT_FOUND: [
    404,
    'No seamless reconciliation report for that operator and day: the daily job writes it after the day ends (00:30 UTC).',
  ],
  SIGNING_KEY_NOT_FOUND: [404, 'No signing key with this id.'],
  ROUTE_NOT_FOUND: [404, 'No endpoint at this path (the gateway answers it).'],
  METHOD_NOT_ALLOWED: [405, 'The endpoint does not take this method (the gateway answers it).'],
  // 409: the state of a resource says no; it may change.
  SHOE_ALREADY_OPEN: [
    409,
    'The table already has a shoe in play: close it first (the detail says how when its chain broke at close).',
  ],
  NO_SHOE_OPEN: [409, 'The table has no shoe in play.'],
  SHOE_ENDED: [409, 'The cut card came out: close the shoe and open another.'],
  ROUND_IN_PLAY: [409, 'A round of the table is in play: resolve or void it first.'],
  CLIENT_SEED_ALREADY_FIXED: [409, 'The shoe already has another client seed.'],
  SHOE_NOT_OPEN: [409, 'The shoe is not open: it takes no seed contribution.'],
  CONTRIBUTIONS_CLOSED: [409, "The shoe's first round opened: its seed contributions are closed."],
  CONTRIBUTIONS_FULL: [409, 'The shoe holds the most seed contributions it takes (1000).'],
  AUDIT_CHAIN_BROKEN: [
    409,
    "The shoe's audit chain does not hold (re-walked before close): it is not signed, the shoe stays closing and its table is locked (TABLE_LOCKED, source AUDIT). Put the missing items back and close again, or an admin abandons the shoe (POST /v1/shoes/{shoeId}/abandon).",
  ],
  SHOE_NOT_ABANDONABLE: [
    409,
    'Only a shoe whose audit chain close found broken (its table locked by that close) can be abandoned: close it instead.',
  ],
  AUDIT_LOCK_NEEDS_SHOE: [
    409,
    "The table is locked because its shoe's audit chain broke at close: unlocking would leave that shoe in play. Close it once repaired, or abandon it (POST /v1/shoes/{shoeId}/abandon), which clears the lock.",
  ],
  ROUND_NOT_OPEN: [
    409,
    'The round takes no more bets ("no va más" was called, or it is over): bet on the next round.',
  ],
  SEAT_TAKEN: [409, 'The seat asked for is held by another player (first come; an idle holder loses it).'],
  SEAT_MISMATCH: [409, "The player's first bet of the coup fixed another place (seat or standing)."],
  ALREADY_SEATED: [409, 'The player holds another seat at this table.'],
  ROUND_VOIDED: [409, 'The round was voided: it cannot be resolved.'],
  ROUND_ALREADY_DEALT: [409, 'The coup was dealt: the round can no longer be voided.'],
  SHOE_NOT_CLOSED: [409, 'The shoe is not closed yet: its seed and its audit export come with the close.'],
  SHOE_ABANDONED: [
    409,
    'The shoe was abandoned (its audit chain broke at close; `details.abandoned` says why and when): it is never closed, revealed or verified.',
  ],
  SHOE_NEVER_PLAYED: [409, 'The shoe was closed before any round: there is nothing to export or verify.'],
  SIGNING_KEY_UNKNOWN: [409, 'The shoe names a signing key the key service does not know or may not read.'],
  CONCURRENT_UPDATE: [
    409,
    'Concurrent writes kept colliding until the time for this request ran short: nothing of this step was written; retry after Retry-After (any Idempotency-Key).',
  ],
  EXCLUSION_ACTIVE: [
    409,
    'A self-exclusion or cooling-off is in force: it can be extended, never shortened or lifted before its end.',
  ],
  IDEMPOTENCY_KEY_IN_FLIGHT: [
    409,
    'A request with this Idempotency-Key is still being processed; retry later.',
  ],
  TABLE_NOT_LOCKED: [409, 'The table is not locked: there is no lock to clear.'],
  CADENCE_NOT_SET: [
    409,
    'pause or resume on a table without cadence settings: start it first with `cadence` (POST /v1/tables/{tableId}/cadence).',
  ],
  OPERATOR_WALLET_BUSY: [
    409,
    'The wallet mode cannot change now: a round of the operator holds bets, or (leaving seamless) a recent seamless transaction is not final; `details` names them.',
  ],
  // 413, 415: the body.
  PAYLOAD_TOO_LARGE: [413, 'The body is larger than 16 KiB.'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'The body is not application/json in UTF-8.'],
  // 422: the game or the money says no.
  SEAMLESS_PERIOD_TOO_LARGE: [
    422,
    'The period holds more than 20000 seamless transactions: ask for a shorter period, or read the daily reports.',
  ],
  HISTORY_TOO_LARGE: [
    422,
    "The history range reaches past the player's 2000 most recent rounds: ask for a shorter or more recent range.",
  ],
  FEED_RANGE_TOO_LARGE: [
    422,
    'A feed range longer than one day on demand (31 days for a listing): longer ranges are in the daily files.',
  ],
  FEED_TOO_LARGE: [
    422,
    'More than 5 MiB of feed in one answer: ask for a shorter range, or read the file from the bucket.',
  ],
  BET_PLAYER_AND_BANKER: [422, 'Punto and Banca in one position.'],
  BET_DUPLICATE_TYPE: [422, 'The same bet type twice in one call.'],
  BET_BELOW_MIN: [422, "Below the table's minimum for the bet type (`details.betType`)."],
  BET_ABOVE_MAX: [422, "Above the table's maximum for the bet type, the position's earlier bets included."],
  BET_SIDE_DISABLED: [
    422,
    'A bet type the table does not offer (`details.betType`): a pair bet without `pairBets`, a side bet not in `sideBets`.',
  ],
  CURRENCY_MISMATCH: [422, "The wallet's currency is not the request's (or the table's)."],
  INSUFFICIENT_FUNDS: [
    422,
    'The wallet has not that much available (`details.available`, `details.needed`).',
  ],
  AMOUNT_TOO_LARGE: [422, 'The balance would leave the safe integer range.'],
  CLOSE_REASON_REQUIRED: [422, 'A shoe the cut card has not ended closes only with a `reason`.'],
  IDEMPOTENCY_KEY_REUSED: [422, 'This Idempotency-Key was used for another request.'],
  POSITION_CALL_LIMIT: [422, 'The position took its 1,000 calls (bets, raises, reductions) of the coup.'],
  BET_NOT_PLACED: [422, 'A reduction or withdrawal of a bet type the position does not hold.'],
  BET_REDUCE_TOO_LARGE: [422, 'A reduction larger than the bet (`details.betType`).'],
  PLAYER_EXCLUDED: [
    422,
    'The player is self-excluded or cooling off (`details.exclusion`, `details.until`): no bet is taken.',
  ],
  RG_LIMIT_REACHED: [
    422,
    "The bet would pass one of the player's responsible-gaming limits (`details.limit`, `details.value`, `details.used`).",
  ],
  WALLET_REFUSED: [
    422,
    "A seamless operator's wallet refused the debit (`details.reason`: PLAYER_BLOCKED, LIMIT_EXCEEDED, UNKNOWN_PLAYER, CURRENCY_MISMATCH, DEBIT_ROLLED_BACK): nothing was taken, no bet placed. Its INSUFFICIENT_FUNDS is answered as INSUFFICIENT_FUNDS.",
  ],
  // 423: a person must act first.
  TABLE_LOCKED: [
    423,
    "The key service or the randomness failed at this table, or a close found its shoe's audit chain broken (`details.lock` says what, when): no shoe opens, no round opens or is dealt until an admin clears the lock (POST /v1/tables/{tableId}/unlock; an AUDIT lock by abandoning the shoe, POST /v1/shoes/{shoeId}/abandon). Rounds not dealt can be voided (stakes refunded).",
  ],
  TABLE_DISABLED: [
    409,
    'The operator has switched this table off (`details.disabled`: when, why, by whom): no shoe and no round opens until it is switched back on (POST /v1/tables/{tableId}/availability with `available: true`).',
  ],
  AVAILABILITY_UNCHANGED: [
    409,
    'The table (or the bet) is already in the availability asked for: nothing was recorded.',
  ],
  WALLET_MODE_MISMATCH: [
    409,
    "The player's position in this round was made in the other wallet mode (the operator's mode changed meanwhile).",
  ],
  SEAMLESS_DEBIT_IN_FLIGHT: [
    409,
    'The debit of this Idempotency-Key is still waiting for the operator’s wallet: ask again in a few seconds.',
  ],
  // 500
  INTERNAL_ERROR: [500, 'Something went wrong on our side; `requestId` identifies it in our logs.'],
  // 503: not now; retry after `Retry-After` seconds.
  DEADLINE_EXCEEDED: [
    503,
    'The request ran out of time before its outcome was known (its writes stopped when this answer was sent): retry after Retry-After, a POST with the SAME Idempotency-Key, which finishes or replays it and never applies it twice.',
  ],
  BEACON_PENDING: [
    503,
    "The shoe's first coup waits for its beacon round, not published (or not served) yet: retry after Retry-After.",
  ],
  TIME_STAMP_PENDING: [
    503,
    'No time-stamp authority anchored the signed head that names the beacon round yet (all down, slow or rejecting): the head is signed and kept, nothing is drawn; retry after Retry-After. If the round is published first, the table locks (TIME_STAMP_TOO_LATE) and the round is never dealt.',
  ],
  KEY_SERVICE_UNAVAILABLE: [
    503,
    'The key service was throttled, timed out or failed inside: nothing was done and nothing is locked; retry after Retry-After.',
  ],
  WALLET_UNAVAILABLE: [
    503,
    "A seamless operator's wallet did not answer the debit clearly (timeout, 5xx, bad signature): the bet is not placed and the debit is being rolled back. Bet again with a NEW Idempotency-Key (this one keeps this answer).",
  ],
  SIGNING_KEY_UNCERTIFIED: [
    503,
    'The signing key has no certificate from the previous generation: run the key handover (docs/deploy.md).',
  ],
} as const satisfies Record<string, readonly [number, string]>;

export type ProblemCode = keyof typeof PROBLEMS;
// Marked pure so that a bundle that does not use the list drops the registry with it: the descriptions
// are the OpenAPI document's, and the HTTP layer needs the codes as types only.
export const PROBLEM_CODES = /* @__PURE__ */ Object.keys(PROBLEMS) as ProblemCode[];

export const problemStatus = (code: ProblemCode): number => PROBLEMS[code][0];

/** What the HTTP layer adds to every route of a kind (the use case's own codes are in its contract). */
export const HTTP_PROBLEMS = {
  /** Every route. */
  any: ['INTERNAL_ERROR', 'DEADLINE_EXCEEDED'],
  /** Routes that take an API key. */
  authenticated: ['API_KEY_MISSING', 'API_KEY_INVALID', 'ROLE_NOT_ALLOWED'],
  /** Routes that admit player access tokens (routes.ts `players`). */
  player: ['TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED', 'PLAYER_NOT_ALLOWED', 'TOKEN_SCOPE_EXCEEDED'],
  /** Routes with a path, query or body schema. */
  validated: ['VALIDATION_FAILED'],
  /** POST routes (bodies, Idempotency-Key). */
  post: [
    'MALFORMED_JSON',
    'IDEMPOTENCY_KEY_REQUIRED',
    'IDEMPOTENCY_KEY_INVALID',
    'IDEMPOTENCY_KEY_IN_FLIGHT',
    'IDEMPOTENCY_KEY_REUSED',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
  ],
} as const satisfies Record<string, readonly ProblemCode[]>;
