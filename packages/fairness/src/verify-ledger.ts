/**
 * A regulator bundle's ledger entries of a position (bundle-ledger.ts) against what the bundle says it
 * was paid or refunded, which the signed heads commit: one PAYOUT (settled) or REFUND (voided) entry,
 * the one `ledgerSeq` names, crediting exactly the payout or the stake; as many call entries as the
 * position's `calls`. The round replay checks the same against the stored ledger (money-checks.ts).
 */
import type { RecordedPosition } from './bundle';
import type { Report } from './verify-report';

export function checkLedger(
  report: Report,
  prefix: string,
  position: RecordedPosition,
  status: 'SETTLED' | 'VOIDED',
): void {
  const entries = position.ledger;
  // A bundle made before positions carried their entries: nothing to check here.
  if (entries === undefined) return;
  const id = `${prefix}.player.${position.playerId}.ledger`;
  const problems: string[] = [];
  const calls = entries.filter((e) => e.kind === 'BET' || e.kind === 'BET_WITHDRAWAL');
  if (calls.length !== position.calls)
    problems.push(`${calls.length} call entries, the position records ${position.calls} calls`);
  const kind = status === 'SETTLED' ? 'PAYOUT' : 'REFUND';
  const credits = entries.filter((e) => e.kind === 'PAYOUT' || e.kind === 'REFUND');
  const credit = credits[0];
  const owed = status === 'SETTLED' ? (position.settlement?.payout ?? 0) : position.stake;
  if (credits.length > 1) problems.push(`${credits.length} PAYOUT/REFUND entries, at most one expected`);
  if (credit && credit.kind !== kind)
    problems.push(`a ${credit.kind} entry in a ${status.toLowerCase()} round`);
  if ((credit?.seq ?? null) !== position.ledgerSeq)
    problems.push(
      `the ${kind} entry is ${credit ? `#${credit.seq}` : 'missing'}, the position names ${position.ledgerSeq ?? 'none'}`,
    );
  if ((credit?.amount ?? 0) !== owed)
    problems.push(
      `the ledger's ${kind} entry credited ${credit?.amount ?? 0}, the position was ${status === 'SETTLED' ? 'paid' : 'refunded'} ${owed}`,
    );
  report.add(
    id,
    problems.length === 0,
    problems.length === 0
      ? `${calls.length} call entries; ${credit ? `${kind} #${credit.seq} credited ${credit.amount}` : 'no money back'}, as ${status === 'SETTLED' ? 'paid' : 'refunded'}`
      : problems.join('; '),
  );
}
