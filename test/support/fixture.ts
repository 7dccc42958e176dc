/**
 * The set-up integration tests repeat: players with fresh ids and money in their wallet, and a table
 * with its shoe (and its first round) open. Through the use cases (never by writing items), so the
 * set-up itself is the product's behaviour.
 */
import type { Actor, Core, CreateTableInput } from '@pyb/core';
import { admin } from './actors';

/** Credits each player's wallet `amount` (minor units) once, with the idempotency key `fund-<playerId>`. */
export async function fundPlayers(
  core: Core,
  actor: Actor,
  playerIds: readonly string[],
  amount: number,
  currency = 'EUR',
): Promise<void> {
  for (const playerId of playerIds) {
    await core.walletTransaction(actor, {
      playerId,
      type: 'CREDIT',
      amount,
      currency,
      idempotencyKey: `fund-${playerId}`,
    });
  }
}

let funded = 0;

/** A new player `${prefix}-N` whose wallet is credited `amount` (default 100,000) once. */
export async function fundedPlayer(
  core: Core,
  actor: Actor,
  o: { prefix: string; amount?: number | undefined; currency?: string | undefined },
): Promise<string> {
  const playerId = `${o.prefix}-${++funded}`;
  await fundPlayers(core, actor, [playerId], o.amount ?? 100_000, o.currency);
  return playerId;
}

/** A table created by the operator's admin, with its first shoe open. */
export async function tableWithShoe(core: Core, input: CreateTableInput, operatorId = 'op-1') {
  const table = await core.createTable(admin(operatorId), input);
  const shoe = await core.openShoe(admin(operatorId), { tableId: table.tableId });
  return { table, shoe };
}

/** A table with its first shoe open and the first round of that shoe open for bets, by `actor`. */
export async function tableWithRound(core: Core, actor: Actor, input: CreateTableInput, clientSeed?: string) {
  const { table, shoe } = await tableWithShoe(core, input, actor.operatorId);
  const round = await core.openRound(actor, { tableId: table.tableId, ...(clientSeed && { clientSeed }) });
  return { table, shoe, round };
}
