/**
 * `heads.contributions.timestamp` and `heads.round.N.betting.timestamp` (docs/provably-fair.md
 * §15.11): in a pyb-shoe/3 shoe every signed head that names a beacon round carries an RFC 3161
 * anchor, and the verifier wants, for each, a token by a TSA the USER pinned (never a certificate
 * found only in the evidence) whose imprint is the head's digest (or the Merkle root the head is
 * proven under) and whose genTime plus its accuracy is before the named round's publication. A head
 * re-dated and re-signed by an insider after the round was out (F2) has no such token.
 */
import { fromHex, verifyInclusion, verifyTimeStampToken } from '@pyb/timestamp';
import { type HeadAnchor, headDigest, type TimeStampAnchor } from './anchors';
import { dataOf, type Event, type Evidence } from './audit-events';
import { roundTime } from './beacon';
import { base64ToBytes, bytesToHex } from './bytes';
import type { SignedHead } from './heads';
import type { Report } from './verify-report';

/** The heads that name a beacon round, and so need an outside time before it. */
const NAMING = new Set(['CONTRIBUTIONS_CLOSED', 'BETTING_CLOSED']);

export async function checkTimeStamps(
  report: Report,
  evidence: Evidence,
  raw: readonly SignedHead[],
  list: Event[],
  pinned: readonly (string | Uint8Array)[],
): Promise<void> {
  const numberOf = new Map(evidence.rounds.map((r) => [r.roundId, r.number]));
  const anchors = new Map((evidence.anchors ?? []).map((a) => [a.seq, a]));
  for (const head of raw) {
    const s = head.statement;
    if (!NAMING.has(s.type)) continue;
    const label = s.roundId
      ? `heads.round.${numberOf.get(s.roundId) ?? s.roundId}.betting.timestamp`
      : 'heads.contributions.timestamp';
    const named = Number(dataOf(list[s.seq]).beaconRound);
    const anchor = anchors.get(s.seq);
    if (!anchor) {
      report.add(
        label,
        false,
        `no time-stamp anchors the ${s.type} head of event ${s.seq}: its time (${s.at}) is only the platform's claim, so nothing shows it was signed before beacon round ${named} was published`,
      );
      continue;
    }
    if (!verifyInclusion(headDigest(head), proofOf(anchor), fromHex(anchor.root))) {
      report.add(
        label,
        false,
        `the head's digest ${bytesToHex(headDigest(head))} is not under the stamped root ${anchor.root} by the anchor's inclusion proof`,
      );
      continue;
    }
    if (!Number.isSafeInteger(named) || named < 1) {
      report.add(label, false, `event ${s.seq} names no beacon round`);
      continue;
    }
    const published = roundTime(evidence.statement.beacon, named) * 1000;
    if (pinned.length === 0) {
      report.untrusted(
        label,
        `${anchor.tokens.length} token(s) over root ${anchor.root}, not checked: no time-stamp authority pinned (--trust-tsa); a certificate the bundle or token carries is never trusted`,
      );
      continue;
    }
    await report.tryAsync(label, () => anchorProblem(head, anchor, pinned, published, named));
  }
}

const proofOf = (anchor: TimeStampAnchor) => ({
  index: anchor.proof.index,
  size: anchor.proof.size,
  siblings: anchor.proof.siblings.map(fromHex),
});

/** What the pinned TSAs vouch for about one digest: each verified token's genTime and accuracy. */
export interface AnchorReading {
  /** Whether the digest is under the stamped root by the anchor's inclusion proof. */
  included: boolean;
  verified: { genTime: number; accuracyMs: number; text: string }[];
  /** The tokens not counted, each with why. */
  refused: string[];
}

export async function readAnchor(
  anchor: TimeStampAnchor,
  digest: Uint8Array,
  pinned: readonly (string | Uint8Array)[],
): Promise<AnchorReading> {
  const root = fromHex(anchor.root);
  if (!verifyInclusion(digest, proofOf(anchor), root)) return { included: false, verified: [], refused: [] };
  const reading: AnchorReading = { included: true, verified: [], refused: [] };
  for (const { tsa, token } of anchor.tokens) {
    try {
      const verified = await verifyTimeStampToken(base64ToBytes(token), { imprint: root, trusted: pinned });
      const accuracyMs = verified.accuracyMs ?? 0;
      reading.verified.push({
        genTime: Date.parse(verified.genTime),
        accuracyMs,
        text: `${tsa} (${verified.tsa.subject}) at ${verified.genTime}${accuracyMs ? ` ± ${accuracyMs} ms` : ''}`,
      });
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'ERROR';
      reading.refused.push(`${tsa}: ${code} (${(error as Error).message})`);
    }
  }
  return reading;
}

async function anchorProblem(
  head: SignedHead,
  anchor: HeadAnchor,
  pinned: readonly (string | Uint8Array)[],
  published: number,
  named: number,
): Promise<[boolean, string]> {
  const { verified, refused } = await readAnchor(anchor, headDigest(head), pinned);
  // The TSA vouches for genTime ± accuracy: the latest instant it allows is what must be early enough.
  let earliest: { at: number; text: string } | undefined;
  for (const v of verified) {
    if (!earliest || v.genTime + v.accuracyMs < earliest.at)
      earliest = { at: v.genTime + v.accuracyMs, text: v.text };
  }
  const deadline = new Date(published).toISOString();
  if (!earliest)
    return [false, `no token verifies against the pinned time-stamp authorities: ${refused.join('; ')}`];
  if (earliest.at >= published)
    return [
      false,
      `stamped by ${earliest.text}, not before beacon round ${named} was published (${deadline}): the head may have been signed once the round was out`,
    ];
  return [
    true,
    `stamped by ${earliest.text}, before beacon round ${named} was published (${deadline})${refused.length > 0 ? `; not counted: ${refused.join('; ')}` : ''}`,
  ];
}
