/**
 * What close checks before it signs (docs/provably-fair.md §11.4), and what it reports once the seed
 * is out: the chain is re-walked from its genesis with the verifier's own checks (links and hashes,
 * sequence numbers, the shoe each event names, phases and round order, times), and every head signed
 * on it so far must still be the hash of the event it names; the voided rounds are revealed.
 */
import {
  phaseProblems,
  SHOE_V3_SCHEME,
  type Shoe,
  seqProblems,
  shoeProblems,
  timeProblems,
  type VoidableRoundV3,
  voidReport,
  voidReportV3,
} from '@pyb/fairness';
import type { AuditRecord, Ctx, RoundRecord, ShoeRecord } from '../shared';
import { mapBounded } from '../shared';
import { type AuditLog, checkChainPrefix, parseAuditLog, recordedPosition } from '../trail';

/**
 * The rounds the chain opened, read strongly consistent (the rounds index may lag a moment behind a
 * round just finished), in play order.
 */
export async function roundsOfChain(ctx: Pick<Ctx, 'store'>, log: AuditLog): Promise<RoundRecord[]> {
  const ids = log.events.flatMap((p) =>
    p.event?.type === 'ROUND_OPENED' && p.event.roundId ? [p.event.roundId] : [],
  );
  const rounds = await mapBounded(ids, 4, (roundId) => ctx.store.get('round', { roundId }));
  return rounds.filter((r): r is RoundRecord => r !== undefined).sort((a, b) => a.number - b.number);
}

export async function chainProblemsBeforeClose(ctx: Ctx, shoe: ShoeRecord): Promise<string[]> {
  const records = await ctx.store.listAudit(shoe.shoeId);
  const log = parseAuditLog(records);
  const rounds = await roundsOfChain(ctx, log);
  const problems: string[] = checkChainPrefix(log, shoe.shoeId, shoe.commitment, records.length - 1).map(
    (p) => p.detail,
  );
  const events = log.events.map((p) => p.event ?? {});
  for (const p of [
    ...seqProblems(events),
    ...shoeProblems(events, shoe.shoeId),
    ...phaseProblems(events, false),
    ...timeProblems(events),
  ]) {
    problems.push(p.detail);
  }
  for (const stale of staleHeads(shoe, rounds, records)) problems.push(stale.detail);
  return problems;
}

/**
 * The signed heads (the contributions' close, each finished round's) that are no longer the hash of
 * the event they name: the chain was rewritten after they were signed.
 */
export function staleHeads(
  shoe: ShoeRecord,
  rounds: readonly RoundRecord[],
  records: readonly AuditRecord[],
): { seq: number; roundId: string | null; detail: string }[] {
  const heads = [
    ...(shoe.contributionsClosed?.head ? [shoe.contributionsClosed.head] : []),
    ...rounds.flatMap((r) => (r.head ? [r.head] : [])),
  ];
  return heads.flatMap(({ statement: { seq, head: hash, type, roundId } }) => {
    const record = records[seq];
    if (record?.hash === hash && record.type === type && (record.roundId ?? null) === roundId) return [];
    return [
      {
        seq,
        roundId,
        detail: `the head signed at event ${seq} (${type}${roundId ? ` of round ${roundId}` : ''}) is ${hash}; the chain there is now ${record?.hash ?? 'missing'}: rewritten after it was signed`,
      },
    ];
  });
}

/** The voided rounds of a revealed shoe: how many, and what the coups they left would have netted the house. */
export async function revealedVoids(
  ctx: Ctx,
  shoe: ShoeRecord,
  deck: Shoe | undefined,
): Promise<{ count: number; houseNet: number }> {
  const log = parseAuditLog(await ctx.store.listAudit(shoe.shoeId));
  const rounds = (await roundsOfChain(ctx, log)).filter(
    (r) => r.status === 'SETTLED' || r.status === 'VOIDED',
  );
  const voidable: VoidableRoundV3[] = await mapBounded(rounds, 4, async (r) => ({
    roundId: r.roundId,
    number: r.number,
    status: r.status as 'SETTLED' | 'VOIDED',
    voidReason: r.voidReason,
    ...(r.burned && { burned: r.burned }),
    positions:
      r.status === 'VOIDED'
        ? (await ctx.store.listPositions(r.roundId)).map((p) => recordedPosition(p, true))
        : [],
  }));
  // pyb-shoe/3 has no order to deal the voids from: only a burn drew cards (fairness voids-v3.ts).
  const report =
    shoe.statement.scheme === SHOE_V3_SCHEME
      ? voidReportV3(shoe.config, voidable)
      : deck
        ? voidReport(shoe.config, deck, voidable)
        : { count: 0, houseNet: 0 };
  return { count: report.count, houseNet: report.houseNet };
}
