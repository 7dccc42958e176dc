/**
 * A player's own events, on his topic alone: his bet accepted, his payout, his balance. They carry no
 * table seq: each is re-read from REST (his position in GET /v1/rounds/{id}, his wallet and ledger),
 * which is where a client that missed one catches up.
 */
import type { LiveEventRecord, LiveMessage, PlaceBetResult, PlayerEvent, Store } from '../shared';
import { playerTopic } from './topics';

const message = (operatorId: string, event: PlayerEvent): LiveMessage => ({
  topic: playerTopic(operatorId, event.playerId),
  payload: JSON.stringify(event),
});

/** After a bet (or raise, reduce) committed: the position as it now stands and the balance after it. */
export function betMessages(
  operatorId: string,
  tableId: string,
  result: Pick<PlaceBetResult, 'position' | 'balance'>,
  at: string,
): LiveMessage[] {
  const { position } = result;
  const base = { tableId, playerId: position.playerId, at, roundId: position.roundId };
  return [
    message(operatorId, {
      ...base,
      type: 'BET_ACCEPTED',
      data: { bets: position.bets.map(({ type, amount }) => ({ type, amount })), stake: position.stake },
    }),
    message(operatorId, { ...base, type: 'BALANCE', data: { balance: result.balance } }),
  ];
}

/** A settled round's payouts, one per position, each with the player's balance (hosted wallets). */
export async function payoutMessages(store: Store, settled: LiveEventRecord): Promise<LiveMessage[]> {
  const roundId = settled.roundId!;
  const positions = await store.listPositions(roundId);
  const out: LiveMessage[] = [];
  for (const p of positions) {
    const base = { tableId: settled.tableId, playerId: p.playerId, at: settled.at, roundId };
    const s = p.settlement;
    out.push(
      message(p.operatorId, {
        ...base,
        type: 'PAYOUT',
        data: {
          stake: p.stake,
          payout: s?.payout ?? 0,
          commission: s?.commission ?? 0,
          bets: (s?.bets ?? []).map((b) => ({ type: b.type, result: b.result, payout: b.payout })),
        },
      }),
    );
    if (p.wallet === 'seamless') continue; // the operator's wallet holds that balance
    const wallet = await store.get('wallet', { operatorId: p.operatorId, playerId: p.playerId });
    if (wallet)
      out.push(message(p.operatorId, { ...base, type: 'BALANCE', data: { balance: wallet.balance } }));
  }
  return out;
}
