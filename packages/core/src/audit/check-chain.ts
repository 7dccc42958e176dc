/**
 * checkShoeChain: re-walks a shoe's audit trail from the stored items and says where it breaks. It runs
 * the one audit checker (replay/verify.ts) that the round replay runs, over every round of the shoe:
 *
 * - the chain itself, once: gapless sequence numbers, every link and hash (genesis = the commitment),
 *   each event's stored attributes equal to its hashed JSON;
 * - the signed shoe statement (SHOE_OPENED) and, once closed, the revealed seed against the
 *   commitment, the shoe re-dealt from it, and the signed chain head;
 * - per round: its events in order and matching the round item, the coup (by the rules, and once
 *   revealed against the re-dealt shoe), the bets and their digest, the settlements recomputed with the
 *   engine or the refunds of a void, their digests, and the ledger entries each position's money moved
 *   by;
 * - the order the offline verifier checks (docs/provably-fair.md §11.2): the phases of the shoe, each
 *   round's events in order, times that never go back;
 * - every signed head (the contributions' close, each finished round) still the hash of the event it
 *   names (HEAD_MISMATCH: rewritten after it was signed);
 * - and what only a whole shoe shows: a round the index lists but the chain does not, a round the chain
 *   names but the store lost.
 */
import { phaseProblems, timeProblems } from '@pyb/fairness';
import type { Actor, ChainProblem, ChainReport, ReplayProblem } from '../shared';
import { mapBounded } from '../shared';
import { loadShoe, roundsOfChain, staleHeads } from '../shoes';
import type { ParsedEvent } from '../trail';
import type { AuditCtx } from './ctx';
import { ReplaySession } from './replay/session';
import { dealProblems, headProblems, statementProblems, wholeChainProblems } from './replay/shoe-checks';
import { roundProblems } from './replay/verify';

/** Rounds checked at once (each reads its positions and their ledger entries). */
const CONCURRENCY = 8;

export async function checkShoeChain(
  ctx: AuditCtx,
  actor: Actor,
  input: { shoeId: string },
): Promise<ChainReport> {
  const record = await loadShoe(ctx, actor, input.shoeId, 'read');
  const session = new ReplaySession(ctx);
  const evidence = await session.shoe(record.shoeId, record);
  const { shoe, log, reveal } = evidence;
  const events = log.events;
  // A chain problem names the round of the event it is about (null: a shoe-level event).
  const eventAt = (seq: number | null): ParsedEvent | undefined =>
    seq === null ? undefined : (events.find((p) => p.record.seq === seq) ?? events[seq]);
  const roundOf = (seq: number | null): string | null => {
    const p = eventAt(seq);
    return p?.event?.roundId ?? p?.record.roundId ?? null;
  };
  const named =
    (roundId: (x: ReplayProblem) => string | null) =>
    (list: readonly ReplayProblem[]): ChainProblem[] =>
      list.map((x) => ({ roundId: roundId(x), seq: x.seq, code: x.code, detail: x.detail }));

  const problems: ChainProblem[] = [
    ...named((x) => roundOf(x.seq))(wholeChainProblems(evidence)),
    ...named(() => null)(await statementProblems(evidence)),
  ];
  const closed = shoe.status === 'CLOSED';
  const ordered = events.map((p) => p.event ?? {});
  for (const x of [...phaseProblems(ordered, closed), ...timeProblems(ordered)]) {
    problems.push({ roundId: x.roundId, seq: x.index, code: x.code, detail: x.detail });
  }
  const records = events.map((p) => p.record);
  for (const x of staleHeads(shoe, await roundsOfChain(ctx, log), records)) {
    problems.push({ roundId: x.roundId, seq: x.seq, code: 'HEAD_MISMATCH', detail: x.detail });
  }
  if (closed && reveal.status === 'REVEALED') {
    problems.push(
      ...named(() => null)([...reveal.seed, ...dealProblems(evidence), ...(await headProblems(evidence))]),
    );
  }

  // Rounds, as the chain lists them (ROUND_OPENED), and as the index lists them.
  const byRound = log.rounds;
  for (const r of await ctx.store.listRounds(shoe.shoeId)) {
    if (!byRound.has(r.roundId))
      problems.push({
        roundId: r.roundId,
        seq: null,
        code: 'ROUND_NOT_IN_CHAIN',
        detail: `round ${r.roundId} has no events in the chain`,
      });
  }
  // Rounds are independent: checked a few at a time, their problems reported in chain order.
  const perRound = await mapBounded([...byRound], CONCURRENCY, async ([roundId, mine]) => {
    const round = await ctx.store.get('round', { roundId });
    if (!round || round.shoeId !== shoe.shoeId) {
      const detail = `round ${roundId} is in the chain but not stored`;
      return [{ roundId, seq: mine[0]!.record.seq, code: 'ROUND_MISSING', detail }];
    }
    return named(() => roundId)(roundProblems(await session.roundEvidence(round)));
  });
  problems.push(...perRound.flat());

  return {
    shoeId: shoe.shoeId,
    ok: problems.length === 0,
    events: events.length,
    head: events.at(-1)?.record.hash ?? null,
    rounds: byRound.size,
    // Every coup recomputed from the revealed seed (a shoe never played has none to recompute).
    coupsVerified:
      closed &&
      reveal.status === 'REVEALED' &&
      reveal.seed.length === 0 &&
      (reveal.shoe !== undefined || !shoe.entropy),
    problems,
  };
}
