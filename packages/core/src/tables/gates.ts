/**
 * Betting gates ("no va más", sharded). A round owns `gates` gate items, all OPEN while it takes bets;
 * every change to a position before "no va más" condition-checks the gate of its player's shard in its
 * own transaction (never writes it), and "no va más" is one transaction that closes the round and every
 * gate. DynamoDB serialises transactions that touch a common item, so each bet is ordered either before
 * the close (its gate was OPEN: it is in the positions listed after the close) or after it (its gate
 * was CLOSED: refused). docs/architecture.md says why this is exact and what it costs.
 */

/** Gates per round when the table does not say (docs/deploy.md: the capacity model). */
export const DEFAULT_BET_GATES = 16;
export const MAX_BET_GATES = 64;

/** The player's shard: FNV-1a (32 bit) of the UTF-8 player id, modulo the round's gates. */
export function gateOf(playerId: string, gates: number): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(playerId)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % gates;
}
