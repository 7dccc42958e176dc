/**
 * One player's place in the open round: wallet, seat (when the API gives one), a spot per bet type
 * that takes the selected chip, and "Place bets". Updated in place, so keyboard focus never jumps.
 */
import { ApiError } from '../lib/api';
import { h } from '../lib/dom';
import { formatMoney } from '../lib/money';
import { betName, type ProblemContext } from '../lib/problems';
import type { Position, Round, Wallet } from '../lib/types';
import { busy, showError } from '../lib/ui';

/** Phase 2 (#11): positions gain `seat` (a number, or null for a standing bettor). */
type SeatedPosition = Position & { seat?: number | null };

export interface PlayerBoardOptions {
  playerId: string;
  round: Round;
  betTypes: readonly string[];
  wallet: Wallet | undefined;
  position: Position | undefined;
  currency: string;
  chip: () => number;
  place: (bets: { type: string; amount: number }[]) => Promise<{ position: Position; balance: number }>;
  message: HTMLElement;
  problemContext: () => ProblemContext;
}

export interface PlayerBoard {
  node: HTMLElement;
  /** After "no va más": no more chips. */
  lock(): void;
}

export function seatText(position: SeatedPosition | undefined): string {
  if (!position || position.seat === undefined) return '';
  return position.seat === null ? 'standing' : `seat ${position.seat}`;
}

export function playerBoard(options: PlayerBoardOptions): PlayerBoard {
  const { playerId, currency } = options;
  const money = (minor: number) => formatMoney(minor, options.wallet?.currency ?? currency);
  const pending = new Map<string, number>();
  const id = `p-${playerId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const betting = options.round.status === 'OPEN';

  const balance = h('span', { class: 'balance' });
  const seat = h('span', { class: 'seat' }, seatText(options.position));
  const placed = h('p', { class: 'placed', id: `${id}-placed` });
  const amounts = new Map<string, HTMLElement>();
  const spots = options.betTypes.map((type) => {
    const amount = h('span', { class: 'spot-amount' });
    amounts.set(type, amount);
    const button = h(
      'button',
      {
        type: 'button',
        class: `spot spot-${type.toLowerCase()}`,
        'data-type': type,
        'aria-describedby': `${id}-placed`,
      },
      h('span', { class: 'spot-name' }, betName(type)),
      amount,
    );
    button.addEventListener('click', () => {
      pending.set(type, (pending.get(type) ?? 0) + options.chip());
      update();
    });
    return button;
  });
  const place = h('button', { type: 'button', class: 'place' }, 'Place bets');
  const clear = h('button', { type: 'button', class: 'clear' }, 'Clear');
  clear.addEventListener('click', () => {
    pending.clear();
    update();
  });
  place.addEventListener('click', () => {
    const bets = [...pending].map(([type, amount]) => ({ type, amount }));
    void busy(
      place,
      options.message,
      async () => {
        if (bets.length === 0) throw new ApiError(400, 'BET_EMPTY', 'no bet');
        const answer = await options.place(bets);
        options.position = answer.position;
        if (options.wallet) options.wallet = { ...options.wallet, balance: answer.balance };
        pending.clear();
        showError(options.message, undefined);
      },
      options.problemContext,
      playerId,
    ).then(update);
  });

  function update(): void {
    const wallet = options.wallet;
    balance.textContent = wallet ? `balance ${money(wallet.balance)}` : 'no wallet';
    seat.textContent = seatText(options.position);
    for (const [type, node] of amounts) {
      const amount = pending.get(type);
      node.textContent = amount ? ` +${money(amount)}` : '';
    }
    const position = options.position;
    placed.textContent =
      position && position.bets.length > 0
        ? `Placed: ${position.bets.map((b) => `${betName(b.type)} ${money(b.amount)}`).join(', ')} (stake ${money(position.stake)})`
        : 'No bet placed yet.';
    place.disabled = !betting || pending.size === 0;
    clear.disabled = pending.size === 0;
  }

  const node = h(
    'article',
    { class: 'board', 'data-player': playerId, 'aria-labelledby': `${id}-name` },
    h('h3', { id: `${id}-name` }, playerId, ' ', seat),
    h('p', { class: 'wallet' }, balance),
    betting && h('div', { class: 'spots', role: 'group', 'aria-label': `Bets of ${playerId}` }, spots),
    placed,
    betting && h('p', { class: 'actions' }, place, ' ', clear),
  );
  update();
  return {
    node,
    lock() {
      for (const spot of spots) spot.disabled = true;
      place.disabled = true;
      clear.disabled = true;
    },
  };
}
