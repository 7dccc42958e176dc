/**
 * Replays rounds for one request. A shoe's record, audit chain and re-dealt order are read and
 * computed once per request however many of its rounds are replayed (game recall pages through a
 * player's rounds, often several of the same shoe).
 */
import {
  houseNet,
  prepareSignatureChecks,
  SHOE_SCHEME_V3,
  type VoidStep,
  type VoidStepV3,
  voidedCoups,
  voidedCoupsV3,
} from '@pyb/fairness';
import type { Ctx, PositionRecord, RoundRecord, RoundReplay, ShoeRecord } from '../../shared';
import { mapBounded } from '../../shared';
import { keyCertificates } from '../../shoes';
import { type AuditLog, parseAuditLog } from '../../trail';
import type { RoundEvidence, ShoeEvidence } from './evidence';
import { ledgerEntries, loadPositionLedger, type PositionLedger } from './ledger';
import { type Reveal, type RevealedShoe, revealShoe } from './revealed';

type VoidStepBurn = Extract<VoidStepV3, { kind: 'VOIDED' }>['burned'];

import { SigningKeys } from './signing-keys';
import { verifyRound } from './verify';
import { replayCoup, replayEvent, replayPosition, replayShoe } from './view';

/**
 * What a voided round would have dealt, once revealed, and what it would have netted the house on
 * the round's positions: the shoe's next coup at its ROUND_VOIDED in the chain, by fairness
 * `voidedCoups` — the definition the export, the close and `baccarat verify` use (so a void just
 * before a dealer-error burn would have dealt the burned cards).
 */
function voidedOutcome(
  shoe: ShoeRecord,
  round: RoundRecord,
  positions: readonly PositionRecord[],
  log: AuditLog,
  reveal: Reveal,
): RoundReplay['voided'] {
  if (reveal.status !== 'REVEALED' || !reveal.shoe) return { revealed: false, coup: null, houseNet: null };
  const next = voidedCoupOf(shoe, round, log, reveal.shoe);
  if (!next) return { revealed: true, coup: null, houseNet: 0 };
  return {
    revealed: true,
    coup: replayCoup({
      index: next.index,
      start: next.start,
      result: next.result,
      cutCardOut: next.cutCardOut,
      last: next.last,
    }),
    houseNet: houseNet(shoe.config, positions, next.result),
  };
}

/** The coup a voided round would have dealt, by its shoe's scheme (fairness voids.ts, one definition). */
function voidedCoupOf(shoe: ShoeRecord, round: RoundRecord, log: AuditLog, revealed: RevealedShoe) {
  if (shoe.statement.scheme === SHOE_SCHEME_V3) {
    const steps: VoidStepV3[] = [];
    for (const { event } of log.events) {
      if (event?.type === 'COUP_DEALT') steps.push({ kind: 'DEALT' });
      else if (event?.type === 'ROUND_VOIDED' && event.roundId)
        steps.push({ kind: 'VOIDED', roundId: event.roundId, burned: event.data.burned as VoidStepBurn });
    }
    return voidedCoupsV3(steps).get(round.roundId);
  }
  const steps: VoidStep[] = [];
  for (const { event } of log.events) {
    if (event?.type === 'COUP_DEALT') steps.push({ kind: 'DEALT' });
    else if (event?.type === 'ROUND_VOIDED' && event.roundId)
      steps.push({ kind: 'VOIDED', roundId: event.roundId, burned: event.data.burned !== undefined });
  }
  return voidedCoups(shoe.config, revealed, steps).get(round.roundId);
}

/** Ledger reads in flight at once per round. */
const LEDGER_CONCURRENCY = 4;

export class ReplaySession {
  private readonly shoes = new Map<string, Promise<ShoeEvidence>>();
  private readonly signingKeys: SigningKeys;

  constructor(private readonly deps: Pick<Ctx, 'store' | 'keys' | 'certificates'>) {
    // Each key only through the stored key chain (cached per container: a certificate never changes).
    this.signingKeys = new SigningKeys(deps.keys, () => keyCertificates(deps));
  }

  /** The shoe's evidence, read once per request; `record`: the shoe as the caller already read it. */
  shoe(shoeId: string, record?: ShoeRecord): Promise<ShoeEvidence> {
    let pending = this.shoes.get(shoeId);
    if (!pending) {
      pending = this.loadShoe(shoeId, record);
      this.shoes.set(shoeId, pending);
    }
    return pending;
  }

  private async loadShoe(shoeId: string, record: ShoeRecord | undefined): Promise<ShoeEvidence> {
    // The shoe's signatures are checked once the reads below are in: the P-256 curve, loaded on first
    // use, loads meanwhile.
    prepareSignatureChecks();
    const [shoe, records] = await Promise.all([
      record ?? this.deps.store.get('shoe', { shoeId }),
      this.deps.store.listAudit(shoeId),
    ]);
    if (!shoe) throw new Error(`shoe ${shoeId} of a stored round is missing`);
    const log = parseAuditLog(records);
    const closeKeyId = shoe.close?.statement.keyId;
    const [statement, close] = await Promise.all([
      this.signingKeys.get(shoe.statement.keyId),
      closeKeyId === undefined ? undefined : this.signingKeys.get(closeKeyId),
    ]);
    return { shoe, log, reveal: await revealShoe(shoe, log), keys: { statement, close } };
  }

  /**
   * What the audit checker reads of a round: its shoe's evidence, every position, and the ledger
   * entries of the positions of `players` (all when omitted).
   */
  async roundEvidence(round: RoundRecord, players?: (p: PositionRecord) => boolean): Promise<RoundEvidence> {
    const [evidence, positions] = await Promise.all([
      this.shoe(round.shoeId),
      this.deps.store.listPositions(round.roundId),
    ]);
    positions.sort((a, b) => (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0));
    const ledgers = new Map<string, PositionLedger>();
    await mapBounded(positions.filter(players ?? (() => true)), LEDGER_CONCURRENCY, async (p) => {
      ledgers.set(p.playerId, await loadPositionLedger(this.deps.store, round, p));
    });
    return { ...evidence, round, positions, ledgers };
  }

  /**
   * The round step by step, with its verification. `player`: show only that player's position (game
   * recall); the round's checks still cover every position.
   */
  async replay(round: RoundRecord, player?: string): Promise<RoundReplay> {
    const shows = (p: PositionRecord) => player === undefined || p.playerId === player;
    const evidence = await this.roundEvidence(round, shows);
    const { shoe, log, keys, positions, ledgers, reveal } = evidence;
    const shown = positions.filter(shows);
    const verification = await verifyRound(evidence);
    return {
      roundId: round.roundId,
      tableId: round.tableId,
      shoeId: round.shoeId,
      operatorId: round.operatorId,
      number: round.number,
      status: round.status,
      openedAt: round.openedAt,
      closedAt: round.closedAt ?? null,
      dealtAt: round.dealtAt ?? null,
      settledAt: round.settledAt ?? null,
      voidedAt: round.voidedAt ?? null,
      voidReason: round.voidReason ?? null,
      shoe: replayShoe(shoe, keys),
      coup: round.coup ? replayCoup(round.coup) : null,
      positions: shown.map((p) => replayPosition(p, ledgerEntries(ledgers.get(p.playerId)!))),
      totals: round.totals ?? null,
      betsDigest: round.betsDigest ?? null,
      settlementsDigest: round.settlementsDigest ?? null,
      events: log.ofRound(round.roundId).map(replayEvent),
      head: round.head ?? null,
      voided: round.status === 'VOIDED' ? voidedOutcome(shoe, round, positions, log, reveal) : null,
      verification,
    };
  }
}
