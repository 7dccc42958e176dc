/**
 * The set-up integration tests repeat: players with fresh ids and money in their wallet, and a table
 * with its shoe (and its first round) open. Through the use cases (never by writing items), so the
 * set-up itself is the product's behaviour.
 */
import type { Actor, Core, CreateTableInput } from '@pyb/core';
import { admin } from './actors';

let funded = 0;

/** A new player `${prefix}-N` whose wallet is credited `amount` (minor units) once. */
export async function fundedPlayer(
  core: Core,
  actor: Actor,
  o: { prefix: string; amount?: number | undefined; currency?: string | undefined },
): Promise<string> {
  const playerId = `${o.prefix}-${++funded}`;
  await core.walletTransaction(actor, {
    playerId,
    type: 'CREDIT',
    amount: o.amount ?? 100_000,
    currency: o.currency ?? 'EUR',
    idempotencyKey: `fund-${playerId}`,
  });
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
