/**
 * Replays rounds for one request. A shoe's record, audit chain and re-dealt order are read and
 * computed once per request however many of its rounds are replayed (game recall pages through a
 * player's rounds, often several of the same shoe).
 */
import type { PositionRecord, RoundRecord, ShoeRecord } from '../model';
import type { KeyService } from '../ports/key-service';
import type { Store } from '../ports/store';
import { mapBounded } from '../retry';
import { type AuditLog, parseAuditLog } from './audit-log';
import { ledgerEntries, loadPositionLedger, type PositionLedger } from './ledger';
import { type Reveal, revealShoe } from './revealed';
import { type KeyLookup, SigningKeys } from './signing-keys';
import type { RoundReplay } from './types';
import { verifyRound } from './verify';
import { replayCoup, replayEvent, replayPosition, replayShoe } from './view';

interface ShoeEvidence {
  shoe: ShoeRecord;
  log: AuditLog;
  reveal: Reveal;
  /** The key its statement names, and the key its close statement names (once closed). */
  keys: { statement: KeyLookup; close: KeyLookup | undefined };
}

/** Ledger reads in flight at once per round. */
const LEDGER_CONCURRENCY = 4;

export class ReplaySession {
  private readonly shoes = new Map<string, Promise<ShoeEvidence>>();
  private readonly signingKeys: SigningKeys;

  constructor(private readonly deps: { store: Store; keys: KeyService }) {
    this.signingKeys = new SigningKeys(deps.keys);
  }

  shoe(shoeId: string): Promise<ShoeEvidence> {
    let pending = this.shoes.get(shoeId);
    if (!pending) {
      pending = this.loadShoe(shoeId);
      this.shoes.set(shoeId, pending);
    }
    return pending;
  }

  private async loadShoe(shoeId: string): Promise<ShoeEvidence> {
    const [shoe, records] = await Promise.all([
      this.deps.store.get('shoe', { shoeId }),
      this.deps.store.listAudit(shoeId),
    ]);
    if (!shoe) throw new Error(`shoe ${shoeId} of a stored round is missing`);
    const log = parseAuditLog(records);
    const closeKeyId = shoe.close?.statement.keyId;
    const [statement, close] = await Promise.all([
      this.signingKeys.get(shoe.statement.keyId),
      closeKeyId === undefined ? undefined : this.signingKeys.get(closeKeyId),
    ]);
    return { shoe, log, reveal: revealShoe(shoe, log), keys: { statement, close } };
  }

  /**
   * The round step by step, with its verification. `player`: show only that player's position (game
   * recall); the round's checks still cover every position.
   */
  async replay(round: RoundRecord, player?: string): Promise<RoundReplay> {
    const [evidence, positions] = await Promise.all([
      this.shoe(round.shoeId),
      this.deps.store.listPositions(round.roundId),
    ]);
    positions.sort((a, b) => (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0));
    const shown = player === undefined ? positions : positions.filter((p) => p.playerId === player);
    const ledgers = new Map<string, PositionLedger>();
    await mapBounded(shown, LEDGER_CONCURRENCY, async (p: PositionRecord) => {
      ledgers.set(p.playerId, await loadPositionLedger(this.deps.store, round, p));
    });
    const { shoe, log, reveal, keys } = evidence;
    const verification = verifyRound({ shoe, round, positions, log, keys, reveal, ledgers });
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
      verification,
    };
  }
}
