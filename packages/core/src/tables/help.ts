/**
 * A table's help screen (issue #28 item 6): what a player must be shown before he bets. Each bet the
 * table offers, with its pay table, its exact return to player and the most it can win; the rules and
 * the interrupted-game policy in Spanish and English. The RTP is the engine's exact house edge for the
 * table's decks, commission rate and pay tables (`houseEdgeExact` over `exactOdds` of a full shoe):
 * the number `baccarat odds` prints, not an estimate. Read only (the table item).
 */
import type * as C from '@pyb/contracts';
import {
  BET_TYPES,
  type BetType,
  betLimit,
  chargesCommission,
  commissionOn,
  compositionOfDecks,
  type ExactOdds,
  exactOdds,
  type HouseEdges,
  houseEdgeExact,
  isSideBetType,
  netWinAt,
  PAIR_PAYS,
  type Pays,
  type Ratio,
  SUPER_6_BANKER_WIN_ON_6,
  type TableConfig,
} from '@pyb/engine';
import type * as z from 'zod';
import type { Actor, Ctx, DeadlineState } from '../shared';
import { ROUND_DEADLINE_SECONDS } from '../shared';
import { interruptedGamesText, rulesText } from './help-text';
import { loadTable } from './tables';

export type TableHelpView = z.output<ReturnType<typeof C.TableHelp>>;
type BetHelpView = TableHelpView['bets'][number];

/** The exact odds of a full shoe, by decks: one enumeration per deck count per process (milliseconds each). */
const oddsByDecks = new Map<number, ExactOdds>();
const oddsOf = (decks: number): ExactOdds => {
  let odds = oddsByDecks.get(decks);
  if (!odds) {
    odds = exactOdds(compositionOfDecks(decks));
    oddsByDecks.set(decks, odds);
  }
  return odds;
};

/** The edge key of each bet type, as `houseEdgeExact` names them; Banca's follows the table's mode. */
function edgeKey(config: TableConfig, type: BetType): keyof HouseEdges<Ratio> {
  switch (type) {
    case 'BANKER':
      return config.bankerMode === 'EZ'
        ? 'ezBanker'
        : config.bankerMode === 'SUPER_6'
          ? 'noCommissionBanker'
          : 'banker';
    case 'PLAYER':
      return 'player';
    case 'TIE':
      return 'tie';
    case 'PLAYER_PAIR':
      return 'playerPair';
    case 'BANKER_PAIR':
      return 'bankerPair';
    case 'EITHER_PAIR':
      return 'eitherPair';
    case 'PERFECT_PAIR':
      return 'perfectPair';
    case 'DRAGON_BONUS_PLAYER':
      return 'dragonBonusPlayer';
    case 'DRAGON_BONUS_BANKER':
      return 'dragonBonusBanker';
    case 'DRAGON_7':
      return 'dragon7';
    case 'PANDA_8':
      return 'panda8';
    case 'SUPER_6':
      return 'super6';
    case 'BIG':
      return 'big';
    case 'SMALL':
      return 'small';
  }
}

const printed = (p: Pays) => `${p.per === 1 ? p.win : p.win / p.per}:1`;

/** Every pay table of a bet (the best one gives its maximum win), and how it is printed. */
function paysOf(config: TableConfig, type: BetType): { all: Pays[]; text: string } {
  const even: Pays = { win: 1, per: 1 };
  const side = config.sideBets ?? {};
  switch (type) {
    case 'BANKER':
      if (config.bankerMode === 'EZ') return { all: [even], text: '1:1, push on a three-card 7' };
      if (config.bankerMode === 'SUPER_6')
        return { all: [even, SUPER_6_BANKER_WIN_ON_6], text: '1:1, a win on 6 pays 1:2' };
      return { all: [even], text: `1:1 less ${config.commission.rateBps / 100}% commission` };
    case 'PLAYER':
      return { all: [even], text: '1:1' };
    case 'TIE':
      return { all: [{ win: config.tiePays, per: 1 }], text: `${config.tiePays}:1` };
    case 'PLAYER_PAIR':
    case 'BANKER_PAIR':
      return { all: [{ win: PAIR_PAYS, per: 1 }], text: `${PAIR_PAYS}:1` };
    case 'PERFECT_PAIR': {
      const bet = side.PERFECT_PAIR!;
      return { all: [bet.pays, bet.paysBoth], text: `${printed(bet.pays)}, both ${printed(bet.paysBoth)}` };
    }
    case 'DRAGON_BONUS_PLAYER':
    case 'DRAGON_BONUS_BANKER': {
      const bet = side[type]!;
      const margins = Object.values(bet.margin);
      return {
        all: [bet.natural, ...margins],
        text: `natural ${printed(bet.natural)}; by 9..4: ${[...margins]
          .reverse()
          .map((p) => printed(p).replace(':1', ''))
          .join('/')} to 1`,
      };
    }
    default: {
      const bet = side[type]!;
      return { all: [bet.pays], text: printed(bet.pays) };
    }
  }
}

/** The bets the table offers, in settlement order: the main bets, the pairs when on, its side bets. */
const offered = (config: TableConfig): BetType[] =>
  BET_TYPES.filter((type) => {
    if (type === 'PLAYER_PAIR' || type === 'BANKER_PAIR') return config.pairBets;
    if (isSideBetType(type)) return config.sideBets?.[type] !== undefined;
    return true;
  });

/** 1 − edge, exact, and as a percentage to 4 decimals (rounded half up on the exact fraction). */
function rtpOf(edge: Ratio): BetHelpView['rtp'] {
  const num = edge.den - edge.num;
  const den = edge.den;
  const scaled = (num * 1_000_000n * 2n + den) / (den * 2n); // rtp × 10^6, rounded half up
  const whole = scaled / 10_000n;
  const frac = (scaled % 10_000n).toString().padStart(4, '0');
  return { exact: `${num}/${den}`, percent: `${whole}.${frac}` };
}

/** The most one bet at the table's maximum stake nets: its best pay table, less Banca's commission. */
function maxWinOf(config: TableConfig, type: BetType, all: readonly Pays[]): number {
  const stake = betLimit(config, type)?.max ?? 0; // offered bets all have a limit
  const net = Math.max(...all.map((p) => netWinAt(stake, p)));
  return type === 'BANKER' && chargesCommission(config) ? net - commissionOn(config, net) : net;
}

export function tableHelp(
  config: TableConfig,
  deadlines: Readonly<Record<DeadlineState, number>> = ROUND_DEADLINE_SECONDS,
): Omit<TableHelpView, 'tableId' | 'name'> {
  const edges = houseEdgeExact(config, oddsOf(config.decks));
  const bets = offered(config).map((type): BetHelpView => {
    const pays = paysOf(config, type);
    return {
      type,
      pays: pays.text,
      rtp: rtpOf(edges[edgeKey(config, type)]),
      maxWin: maxWinOf(config, type, pays.all),
    };
  });
  return {
    currency: config.currency,
    decks: config.decks,
    bets,
    rules: rulesText(config),
    interruptedGames: interruptedGamesText(deadlines),
  };
}

export async function getTableHelp(
  ctx: Pick<Ctx, 'store' | 'roundDeadlineSeconds'>,
  actor: Actor,
  input: { tableId: string },
): Promise<TableHelpView> {
  const table = await loadTable(ctx, actor, input.tableId, 'read');
  return { tableId: table.tableId, name: table.name, ...tableHelp(table.config, ctx.roundDeadlineSeconds) };
}
