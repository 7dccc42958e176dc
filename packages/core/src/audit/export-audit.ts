/**
 * The audit export: a closed shoe as one bundle (fairness `ShoeBundle`, pyb-shoe-bundle/2) that
 * `baccarat verify` checks offline — statement, signature, every signing-key certificate, revealed
 * seed, contributed seeds, beacon round, every round with its bets and settlements, the signed heads,
 * the void report and the whole audit chain with its signed close. It is a faithful copy of what is
 * stored, not a recomputation (the void report excepted, which the verifier recomputes): a stored item
 * that was altered shows up as a failed check. The public proof is the same without positions.
 */

import { formatCard } from '@pyb/engine';
import {
  BUNDLE_FORMAT,
  type BundleLedgerEntry,
  type Contribution,
  dealShoe,
  type HeadAnchor,
  hexToBytes,
  shoeProof as proofOf,
  type RecordedRound,
  recordedBurn,
  recordedCoup,
  SHOE_SCHEME_V3,
  type ShoeBundle,
  type ShoeProof,
  type SignedHead,
  startShoeV3,
  voidReport,
  voidReportV3,
} from '@pyb/fairness';
import type { Actor, PositionRecord, RoundRecord, ShoeRecord } from '../shared';
import {
  checkId,
  conflict,
  mapBounded,
  notFound,
  publicAnchor,
  publicCertificate,
  shoeAbandoned,
} from '../shared';
import { keyCertificates, loadShoe, shoeWasPlayed } from '../shoes';
import { parseAuditLog, recordedPosition } from '../trail';
import type { AuditCtx } from './ctx';
import { ledgerEntries, loadPositionLedger } from './replay/ledger';

/** Rounds read at once. */
const CONCURRENCY = 4;

export async function exportAudit(
  ctx: AuditCtx,
  actor: Actor,
  input: { shoeId: string },
): Promise<ShoeBundle> {
  return buildBundle(ctx, await loadShoe(ctx, actor, input.shoeId, 'read'));
}

/** The public proof of a closed shoe: no key needed, nothing personal (no player id, no amount). */
export async function shoeProof(ctx: AuditCtx, input: { shoeId: string }): Promise<ShoeProof> {
  checkId('shoeId', input.shoeId);
  const shoe = await ctx.store.get('shoe', { shoeId: input.shoeId });
  if (!shoe) throw notFound('shoe', input.shoeId);
  return proofOf(await buildBundle(ctx, shoe));
}

async function buildBundle(ctx: AuditCtx, shoe: ShoeRecord): Promise<ShoeBundle> {
  if (shoe.status === 'ABANDONED') throw shoeAbandoned(shoe);
  if (shoe.status !== 'CLOSED' || !shoe.close || !shoe.serverSeed) {
    throw conflict(
      'SHOE_NOT_CLOSED',
      `shoe ${shoe.shoeId} is not closed: its seed is revealed, and its evidence published, once it is closed`,
    );
  }
  if (!shoeWasPlayed(shoe)) {
    throw conflict(
      'SHOE_NEVER_PLAYED',
      `shoe ${shoe.shoeId} was closed before any round: there is nothing to verify`,
    );
  }
  const [records, keys, indexed, debts] = await Promise.all([
    ctx.store.listAudit(shoe.shoeId),
    keyCertificates(ctx),
    ctx.store.listRounds(shoe.shoeId),
    shoe.digestSalt === undefined ? [] : ctx.store.listDebts(shoe.shoeId),
  ]);
  const log = parseAuditLog(records);
  // The rounds the chain opened, and any stored round it does not know of (so the verifier sees it).
  const ids = new Set<string>();
  for (const p of log.events)
    if (p.event?.type === 'ROUND_OPENED' && p.event.roundId) ids.add(p.event.roundId);
  for (const r of indexed) ids.add(r.roundId);
  const stored = (
    await mapBounded([...ids], CONCURRENCY, async (roundId) => {
      const round = await ctx.store.get('round', { roundId });
      if (!round || round.shoeId !== shoe.shoeId) return undefined;
      const positions = await ctx.store.listPositions(roundId);
      // Each position's ledger entries go out with it: the offline verifier checks them (verify-ledger).
      const ledgers = new Map<string, BundleLedgerEntry[]>();
      for (const p of positions) {
        const entries = ledgerEntries(await loadPositionLedger(ctx.store, round, p));
        ledgers.set(
          p.playerId,
          entries.flatMap((e) =>
            e ? [{ seq: e.seq, kind: e.kind as BundleLedgerEntry['kind'], amount: e.amount }] : [],
          ),
        );
      }
      return { round, positions, ledgers };
    })
  )
    .filter((r) => r !== undefined)
    .sort((a, b) => a.round.number - b.round.number);
  const rounds = stored.map(({ round, positions, ledgers }) => {
    const recorded = recordedRound(round, positions);
    return {
      ...recorded,
      positions: recorded.positions.map((p) => ({ ...p, ledger: ledgers.get(p.playerId) ?? [] })),
    };
  });
  const contributions: Contribution[] = log.events
    .filter((p) => p.event?.type === 'SEED_CONTRIBUTED')
    .map((p) => p.event!.data as unknown as Contribution);
  const heads: SignedHead[] = [
    ...(shoe.contributionsClosed.head ? [shoe.contributionsClosed.head] : []),
    // pyb-shoe/3: each round's receipt naming its beacon round, then its settled or voided head.
    ...stored.flatMap(({ round }) => (round.betting?.head ? [round.betting.head] : [])),
    ...stored.flatMap(({ round }) => (round.head ? [round.head] : [])),
  ].sort((a, b) => a.statement.seq - b.statement.seq);
  // pyb-shoe/3: the outside time of each head that named a beacon round (shoes/anchor-heads.ts).
  const anchors: HeadAnchor[] = [
    ...(shoe.contributionsClosed.anchor
      ? [{ seq: shoe.contributionsClosed.seq, ...publicAnchor(shoe.contributionsClosed.anchor) }]
      : []),
    ...stored.flatMap(({ round }) =>
      round.betting?.head && round.betting.anchor
        ? [{ seq: round.betting.head.statement.seq, ...publicAnchor(round.betting.anchor) }]
        : [],
    ),
  ].sort((a, b) => a.seq - b.seq);
  const { burn, voids } = dealtEvidence(shoe, shoe.serverSeed, shoe.entropy, rounds);
  return {
    format: BUNDLE_FORMAT,
    statement: shoe.statement,
    signature: shoe.signature,
    keys: keys.map(publicCertificate),
    serverSeed: shoe.serverSeed,
    contributions,
    beacon: { round: shoe.beacon.round, signature: shoe.beacon.signature },
    cutIndex: shoe.cutIndex ?? -1,
    burn,
    rounds,
    voids,
    heads,
    ...(anchors.length > 0 && { anchors }),
    audit: {
      events: log.events.map((p) => ({
        hash: p.record.hash,
        prevHash: p.record.prevHash,
        // An unreadable stored event still goes out: its hash will not match, and the verifier says so.
        event: p.event ? (p.event as unknown as Record<string, unknown>) : { unreadable: p.record.event },
      })),
      close: shoe.close.statement,
      signature: shoe.close.signature,
    },
    // The salt and what only it lets a verifier check: never in the proof (fairness shoeProof).
    ...(shoe.digestSalt !== undefined && {
      digestSalt: shoe.digestSalt,
      commission: debts.map((d) => ({ playerId: d.playerId, collected: d.collected, owed: d.owed })),
    }),
  };
}

/**
 * The shoe's start burn (as stored with its first use of cards; a shoe whose every round was voided
 * drew none, so it is drawn again from the revealed seed) and the void report, by the shoe's scheme.
 */
function dealtEvidence(shoe: ShoeRecord, serverSeed: string, entropy: string, rounds: RecordedRound[]) {
  const { config } = shoe;
  if (shoe.statement.scheme === SHOE_SCHEME_V3) {
    const start =
      shoe.draw ??
      startShoeV3({
        serverSeed: hexToBytes(serverSeed),
        entropy,
        shoeId: shoe.shoeId,
        decks: config.decks,
        cutCard: config.cutCard,
        afterCutCard: config.afterCutCard,
      });
    const { shown, burned, cards } = start.burn;
    return {
      burn: { shown: formatCard(shown), burned, cards: cards.map(formatCard) },
      voids: voidReportV3(config, rounds),
    };
  }
  const deck = dealShoe({
    serverSeed: hexToBytes(serverSeed),
    clientSeed: entropy,
    shoeId: shoe.shoeId,
    decks: config.decks,
    cutCard: config.cutCard,
  });
  const burn = shoe.burn ?? deck.burn;
  return {
    burn: { shown: formatCard(burn.shown), burned: burn.burned },
    voids: voidReport(config, deck, rounds),
  };
}

function recordedRound(round: RoundRecord, positions: PositionRecord[]): RecordedRound {
  const voided = round.status === 'VOIDED' || round.status === 'VOIDING';
  const coup = round.coup;
  return {
    roundId: round.roundId,
    number: round.number,
    // A closed shoe holds only settled or voided rounds; anything else is exported as stored.
    status: round.status as RecordedRound['status'],
    ...(round.voidReason !== undefined && { voidReason: round.voidReason }),
    ...(round.voidNote !== undefined && { voidNote: round.voidNote }),
    // A stored card that is not one goes out as `?<n>`: the verifier refuses it, naming the field.
    coup: coup ? recordedCoup(coup) : null,
    ...(round.burned && { burned: recordedBurn(round.burned) }),
    positions: [...positions]
      .sort((a, b) => (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0))
      .map((p) => recordedPosition(p, voided)),
  };
}
