/**
 * The checks of salted digests (salted.ts, docs/provably-fair.md §11.1 "Salted digests"): in a proof,
 * only that the shoe's digests are salted and no void note is in clear (nothing else can be checked
 * without the salt); in a regulator bundle, that its salt is the one the statement committed to, each
 * void note against its `noteDigest`, and the commission at the close against SHOE_CLOSED's digest.
 * A shoe opened before digests were salted (no `saltCommitment`) adds none of these checks.
 */
import { dataOf, type Event, type Evidence } from './audit-events';
import { BUNDLE_FORMAT } from './bundle';
import { commissionRecord, noteDigest, saltCommitmentOf, saltedDigest } from './salted';
import type { Report } from './verify-report';

/** The salt the digests of this evidence are keyed by: the bundle's, if its statement salts them. */
export const digestSaltOf = (evidence: Evidence): string | undefined =>
  evidence.format === BUNDLE_FORMAT && evidence.statement.saltCommitment !== undefined
    ? evidence.digestSalt
    : undefined;

export function checkSalted(report: Report, evidence: Evidence, list: Event[]): void {
  const committed = evidence.statement.saltCommitment;
  const bundle = evidence.format === BUNDLE_FORMAT ? evidence : undefined;
  if (committed === undefined) {
    if (bundle?.digestSalt !== undefined)
      report.add('digests.salt', false, 'the bundle carries a digest salt the statement never committed to');
    return;
  }
  report.try('digests.salt', () => {
    if (!bundle)
      return [
        true,
        `the digests over players and amounts (bets, settlements, refunds, collections, the commission, void notes) are keyed by a secret salt committed as ${committed}: this proof cannot be searched for who bet or was paid what, and only the regulator bundle (its digestSalt) checks them`,
      ];
    if (bundle.digestSalt === undefined)
      return [false, `the statement committed to a digest salt (${committed}) the bundle does not carry`];
    const commitment = saltCommitmentOf(bundle.digestSalt);
    return commitment === committed
      ? [true, `SHA-256(digest salt) = ${commitment}, as committed: the digests are checked with it`]
      : [false, `SHA-256(digest salt) = ${commitment}, but the statement committed to ${committed}`];
  });
  for (const round of evidence.rounds) {
    if (round.status !== 'VOIDED') continue;
    const voided = list.find((e) => e.roundId === round.roundId && e.type === 'ROUND_VOIDED');
    const data = dataOf(voided);
    const note = 'voidNote' in round ? round.voidNote : undefined;
    if (data.note === undefined && data.noteDigest === undefined && note === undefined) continue;
    report.try(`audit.round.${round.number}.note`, () => {
      if (data.note !== undefined) return [false, 'ROUND_VOIDED carries its note in clear in a salted shoe'];
      if (!bundle) return [true, 'the void note is in the chain only as a salted digest'];
      if (note === undefined || data.noteDigest === undefined)
        return [
          false,
          note === undefined
            ? 'ROUND_VOIDED commits a note the bundle does not carry'
            : 'the bundle carries a note ROUND_VOIDED never committed',
        ];
      const digest = noteDigest(bundle.digestSalt ?? '', note);
      return digest === data.noteDigest
        ? [true, `the note committed when voided (digest ${digest})`]
        : [
            false,
            `the note in the bundle (digest ${digest}) is not the one committed (${String(data.noteDigest)})`,
          ];
    });
  }
  if (bundle?.commission === undefined) return;
  report.try('audit.commission', () => {
    const closed = list.findLast((e) => e.type === 'SHOE_CLOSED');
    const recorded = (dataOf(closed).commission as { digest?: unknown } | undefined)?.digest;
    const digest = saltedDigest(bundle.digestSalt ?? '', bundle.commission!.map(commissionRecord));
    return digest === recorded
      ? [true, `${bundle.commission!.length} player(s)' commission committed at the close (digest ${digest})`]
      : [
          false,
          `the commission in the bundle (digest ${digest}) is not the one SHOE_CLOSED committed (${String(recorded)})`,
        ];
  });
}
