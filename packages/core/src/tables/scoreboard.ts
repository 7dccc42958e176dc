import { resultsPanel, roadEntryOf, sideBetResults } from '@pyb/engine';
import type { Actor, ScoreboardView, Store } from '../shared';
import { checkId, notFound } from '../shared';
import { loadTable } from './tables';

/**
 * The table's results panel for one shoe, reset per shoe: every dealt coup in order, and the roads
 * (bead plate, big road, derived roads) the engine draws from them; with each coup, the cards it used and
 * what each side bet the shoe's table offers did.
 */
export async function getScoreboard(
  deps: { store: Store },
  actor: Actor,
  input: { tableId: string; shoeId?: string },
): Promise<ScoreboardView> {
  const table = await loadTable(deps, actor, input.tableId, 'read');
  const shoeId = input.shoeId ?? table.currentShoeId;
  if (shoeId === undefined)
    return { tableId: table.tableId, shoeId: null, coups: [], panel: resultsPanel([]) };
  checkId('shoeId', shoeId);
  const shoe = await deps.store.get('shoe', { shoeId });
  if (!shoe || shoe.tableId !== table.tableId) throw notFound('shoe', shoeId);
  const dealt = (await deps.store.listRounds(shoeId))
    .flatMap((round) => (round.coup ? [{ round, coup: round.coup }] : []))
    .sort((a, b) => a.coup.index - b.coup.index);
  return {
    tableId: table.tableId,
    shoeId,
    coups: dealt.map(({ round, coup }) => ({
      roundId: round.roundId,
      coup: round.number,
      winner: coup.result.winner,
      playerTotal: coup.result.player.total,
      bankerTotal: coup.result.banker.total,
      natural: coup.result.natural,
      playerPair: coup.result.playerPair,
      bankerPair: coup.result.bankerPair,
      cards: coup.result.cardsUsed,
      sideBets: sideBetResults(shoe.config, coup.result),
    })),
    panel: resultsPanel(dealt.map(({ coup }) => roadEntryOf(coup.result))),
  };
}
