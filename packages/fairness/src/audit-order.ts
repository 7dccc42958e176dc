/**
 * The order a shoe's audit chain must follow (docs/provably-fair.md §11.2), checked the same way by
 * the offline verifier and by the platform before it signs a close: sequence numbers, the shoe every
 * event names, the phases of a shoe, and the order of each round's events.
 */

export const AUDIT_EVENT_TYPES = [
  'SHOE_OPENED',
  'SEED_CONTRIBUTED',
  'CONTRIBUTIONS_CLOSED',
  'BEACON_RECORDED',
  'ROUND_OPENED',
  'BETTING_CLOSED',
  'COUP_DEALT',
  'ROUND_SETTLED',
  'ROUND_VOIDED',
  'PLAYER_LEFT',
  'SHOE_CLOSED',
] as const;
export type AuditEventKind = (typeof AUDIT_EVENT_TYPES)[number];

/** What the order checks read of an event. */
export interface OrderedEvent {
  seq?: unknown;
  type?: unknown;
  shoeId?: unknown;
  roundId?: unknown;
  at?: unknown;
}

export interface OrderProblem {
  /** SEQ_GAP, WRONG_SHOE, EVENT_ORDER, ROUND_ORDER, TIME_ORDER */
  code: string;
  detail: string;
  /** Index in the chain of the event concerned. */
  index: number;
  roundId: string | null;
}

/** The events of a round, by how it ended: ROUND_OPENED < BETTING_CLOSED < COUP_DEALT < ROUND_SETTLED, or a void. */
const ROUND_PATHS: readonly (readonly string[])[] = [
  ['ROUND_OPENED', 'BETTING_CLOSED', 'COUP_DEALT', 'ROUND_SETTLED'],
  ['ROUND_OPENED', 'BETTING_CLOSED', 'ROUND_VOIDED'],
  ['ROUND_OPENED', 'ROUND_VOIDED'],
];
const ROUND_EVENTS = new Set([
  'ROUND_OPENED',
  'BETTING_CLOSED',
  'COUP_DEALT',
  'ROUND_SETTLED',
  'ROUND_VOIDED',
]);
const ROUND_ENDS = new Set(['ROUND_SETTLED', 'ROUND_VOIDED']);

/** Whether `types` is a whole round (`finished`) or the beginning of one. */
export function roundPathProblem(types: readonly string[], finished: boolean): string | undefined {
  const fits = ROUND_PATHS.some((path) =>
    finished
      ? path.length === types.length && path.every((t, i) => t === types[i])
      : types.length <= path.length && types.every((t, i) => t === path[i]),
  );
  if (fits) return undefined;
  return `events ${types.join(' < ') || '(none)'}; a round goes ROUND_OPENED < BETTING_CLOSED < COUP_DEALT < ROUND_SETTLED, or ROUND_OPENED [< BETTING_CLOSED] < ROUND_VOIDED`;
}

/** Every event's seq is its index (no gap, no duplicate, no renumbering). */
export function seqProblems(events: readonly OrderedEvent[]): OrderProblem[] {
  const index = events.findIndex((e, i) => e.seq !== i);
  if (index < 0) return [];
  const e = events[index]!;
  return [
    {
      code: 'SEQ_GAP',
      detail: `event #${index} of the chain has sequence number ${String(e.seq)}`,
      index,
      roundId: typeof e.roundId === 'string' ? e.roundId : null,
    },
  ];
}

/** Every event names this shoe. */
export function shoeProblems(events: readonly OrderedEvent[], shoeId: string): OrderProblem[] {
  return events.flatMap((e, index) =>
    e.shoeId === shoeId
      ? []
      : [
          {
            code: 'WRONG_SHOE',
            detail: `event ${index} (${String(e.type)}) names shoe ${String(e.shoeId)}, not ${shoeId}`,
            index,
            roundId: typeof e.roundId === 'string' ? e.roundId : null,
          },
        ],
  );
}

/** Timestamps never go back along the chain. */
export function timeProblems(events: readonly OrderedEvent[]): OrderProblem[] {
  let last = Number.NEGATIVE_INFINITY;
  for (const [index, e] of events.entries()) {
    const t = typeof e.at === 'string' ? Date.parse(e.at) : Number.NaN;
    if (!Number.isFinite(t) || t < last) {
      return [
        {
          code: 'TIME_ORDER',
          detail: Number.isFinite(t)
            ? `event ${index} (${String(e.type)}) is dated ${String(e.at)}, before the event before it`
            : `event ${index} (${String(e.type)}) has no valid time`,
          index,
          roundId: typeof e.roundId === 'string' ? e.roundId : null,
        },
      ];
    }
    last = t;
  }
  return [];
}

/**
 * The phases of a shoe: SHOE_OPENED first; seed contributions, then their close, before any round;
 * the beacon round recorded after that close and before the first coup; one round at a time, each
 * in its order; SHOE_CLOSED last, with no round left open. `closed`: the chain must end with it.
 */
export function phaseProblems(events: readonly OrderedEvent[], closed: boolean): OrderProblem[] {
  const problems: OrderProblem[] = [];
  const problem = (index: number, detail: string, roundId: string | null = null, code = 'EVENT_ORDER') =>
    problems.push({ code, detail, index, roundId });
  let contributionsClosed = -1;
  let beacon = -1;
  let open: { roundId: string; types: string[] } | undefined;
  const done = new Set<string>();
  for (const [index, e] of events.entries()) {
    const type = String(e.type);
    const roundId = typeof e.roundId === 'string' ? e.roundId : null;
    if (index === 0 && type !== 'SHOE_OPENED') problem(0, `the chain starts with ${type}, not SHOE_OPENED`);
    if (!(AUDIT_EVENT_TYPES as readonly string[]).includes(type)) {
      problem(index, `event ${index} has an unknown type ${type}`, roundId);
      continue;
    }
    if (ROUND_EVENTS.has(type) !== (roundId !== null)) {
      problem(
        index,
        `event ${index} (${type}) ${roundId === null ? 'names no round' : `names round ${roundId}`}`,
        roundId,
      );
      continue;
    }
    switch (type) {
      case 'SHOE_OPENED':
        if (index !== 0) problem(index, `SHOE_OPENED again at event ${index}`);
        break;
      case 'SEED_CONTRIBUTED':
        if (contributionsClosed >= 0)
          problem(
            index,
            `a seed contributed at event ${index}, after contributions closed at event ${contributionsClosed}`,
          );
        break;
      case 'CONTRIBUTIONS_CLOSED':
        if (contributionsClosed >= 0) problem(index, `contributions closed again at event ${index}`);
        contributionsClosed = index;
        break;
      case 'BEACON_RECORDED':
        if (beacon >= 0) problem(index, `a beacon round recorded again at event ${index}`);
        if (contributionsClosed < 0)
          problem(index, `the beacon round was recorded at event ${index}, before contributions closed`);
        beacon = index;
        break;
      case 'SHOE_CLOSED':
        if (index !== events.length - 1)
          problem(index, `SHOE_CLOSED at event ${index} is not the last event`);
        if (open) problem(index, `the shoe closed with round ${open.roundId} still in play`, open.roundId);
        break;
      case 'PLAYER_LEFT':
        break;
      default: {
        // A round's own event.
        const id = roundId!;
        if (type === 'ROUND_OPENED') {
          if (contributionsClosed < 0)
            problem(
              index,
              `round ${id} opened at event ${index}, before contributions closed`,
              id,
              'ROUND_ORDER',
            );
          if (open)
            problem(
              index,
              `round ${id} opened at event ${index} while round ${open.roundId} was in play`,
              id,
              'ROUND_ORDER',
            );
          if (done.has(id)) problem(index, `round ${id} opened twice`, id, 'ROUND_ORDER');
          open = { roundId: id, types: [] };
        } else if (open?.roundId !== id) {
          problem(
            index,
            `event ${index} (${type}) of round ${id} comes while ${open ? `round ${open.roundId}` : 'no round'} is in play`,
            id,
            'ROUND_ORDER',
          );
          break;
        }
        if (type === 'COUP_DEALT' && beacon < 0)
          problem(index, `a coup was dealt at event ${index} before the beacon round was recorded`, id);
        open!.types.push(type);
        const wrong = roundPathProblem(open!.types, ROUND_ENDS.has(type));
        if (wrong) problem(index, `round ${id}: ${wrong}`, id, 'ROUND_ORDER');
        if (ROUND_ENDS.has(type)) {
          done.add(id);
          open = undefined;
        }
      }
    }
  }
  const last = events.at(-1);
  if (closed && last?.type !== 'SHOE_CLOSED')
    problem(events.length - 1, 'the chain does not end with SHOE_CLOSED');
  return problems;
}
