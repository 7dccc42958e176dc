/**
 * The audit export: a closed shoe as one public bundle (fairness `ShoeBundle`) that `baccarat verify`
 * checks offline — statement, signature, public key, revealed seed, client seed, every round with its
 * bets and settlements, and the whole audit chain with its signed head. It is a faithful copy of what
 * is stored, not a recomputation: a stored item that was altered shows up as a failed check.
 *
 * The public keys are the ones the signed statements name, current or retired: a shoe opened before a
 * key rotation carries the key it was signed with, and one closed after it carries the close's key too.
 */

import { formatCard } from '@pyb/engine';
import {
  BUNDLE_FORMAT,
  dealShoe,
  hexToBytes,
  type RecordedRound,
  recordedCoup,
  type ShoeBundle,
} from '@pyb/fairness';
import type { Actor } from '../actor';
import type { PositionRecord, RoundRecord } from '../model';
import type { PublicKey } from '../ports/key-service';
import { recordedPosition } from '../recorded';
import { parseAuditLog } from '../replay/audit-log';
import { type KeyLookup, SigningKeys } from '../replay/signing-keys';
import { mapBounded } from '../retry';
import { type Ctx, conflict } from './context';
import { loadShoe } from './shoes';

/** Rounds read at once. */
const CONCURRENCY = 4;

export async function exportAudit(ctx: Ctx, actor: Actor, input: { shoeId: string }): Promise<ShoeBundle> {
  const shoe = await loadShoe(ctx, actor, input.shoeId, 'read');
  if (shoe.status !== 'CLOSED' || !shoe.close || !shoe.serverSeed) {
    throw conflict(
      'SHOE_NOT_CLOSED',
      `shoe ${shoe.shoeId} is not closed: its seed is revealed, and its audit exported, once it is closed`,
    );
  }
  if (!shoe.clientSeed) {
    throw conflict(
      'SHOE_NEVER_PLAYED',
      `shoe ${shoe.shoeId} was closed before any round: there is nothing to verify`,
    );
  }
  const close = shoe.close;
  const signingKeys = new SigningKeys(ctx.keys);
  const [records, opener, closer, indexed] = await Promise.all([
    ctx.store.listAudit(shoe.shoeId),
    signingKeys.get(shoe.statement.keyId),
    signingKeys.get(close.statement.keyId),
    ctx.store.listRounds(shoe.shoeId),
  ]);
  const keyOf = (lookup: KeyLookup): PublicKey => {
    if (lookup.key) return lookup.key;
    throw conflict(
      'SIGNING_KEY_UNKNOWN',
      `shoe ${shoe.shoeId} names signing key ${lookup.keyId}, which the key service does not know or may not read: its bundle could not carry the key that verifies it`,
    );
  };
  const statementKey = keyOf(opener);
  const closeKey = keyOf(closer);
  const log = parseAuditLog(records);
  // The rounds the chain opened, and any stored round it does not know of (so the verifier sees it).
  const ids = new Set<string>();
  for (const p of log.events)
    if (p.event?.type === 'ROUND_OPENED' && p.event.roundId) ids.add(p.event.roundId);
  for (const r of indexed) ids.add(r.roundId);
  const rounds = (
    await mapBounded([...ids], CONCURRENCY, async (roundId) => {
      const round = await ctx.store.get('round', { roundId });
      if (!round || round.shoeId !== shoe.shoeId) return undefined;
      return recordedRound(round, await ctx.store.listPositions(roundId));
    })
  )
    .filter((r): r is RecordedRound => r !== undefined)
    .sort((a, b) => a.number - b.number);

  // The burn is stored with the first coup; a shoe whose every round was voided dealt none.
  const burn =
    shoe.burn ??
    dealShoe({
      serverSeed: hexToBytes(shoe.serverSeed),
      clientSeed: shoe.clientSeed,
      shoeId: shoe.shoeId,
      decks: shoe.config.decks,
      cutCard: shoe.config.cutCard,
    }).burn;
  return {
    format: BUNDLE_FORMAT,
    statement: shoe.statement,
    signature: shoe.signature,
    publicKey: statementKey.pem,
    serverSeed: shoe.serverSeed,
    clientSeed: shoe.clientSeed,
    cutIndex: shoe.cutIndex ?? -1,
    burn: { shown: formatCard(burn.shown), burned: burn.burned },
    rounds,
    audit: {
      events: log.events.map((p) => ({
        hash: p.record.hash,
        prevHash: p.record.prevHash,
        // An unreadable stored event still goes out: its hash will not match, and the verifier says so.
        event: p.event ? (p.event as unknown as Record<string, unknown>) : { unreadable: p.record.event },
      })),
      close: close.statement,
      signature: close.signature,
      // Only a shoe whose close was signed by another key carries a second one (bundle format 1).
      ...(closer.keyId !== opener.keyId && { publicKey: closeKey.pem }),
    },
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
    // A stored card that is not one goes out as `?<n>`: the verifier refuses it, naming the field.
    coup: coup ? recordedCoup(coup) : null,
    positions: [...positions]
      .sort((a, b) => (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0))
      .map((p) => recordedPosition(p, voided)),
  };
}
