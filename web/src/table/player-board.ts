/**
 * One player's place in the open round: wallet, seat or standing (a seat to claim before the coup's first
 * bet), a spot per bet type that takes the selected chip, "Place bets", and per bet placed "reduce by one
 * chip" and "withdraw" (before "no va más"). Updated in place, so keyboard focus never jumps.
 */
import { ApiError } from '../lib/api';
import { h } from '../lib/dom';
import { formatMoney } from '../lib/money';
import { betName, type ProblemContext } from '../lib/problems';
import type { Position, Round, SeatView, Wallet } from '../lib/types';
import { busy, showError } from '../lib/ui';

/** What a board asks of the API: a bet (from a seat to claim, or the held one / standing), a reduction, a withdrawal. */
export type BetChange =
  | { kind: 'BET'; bets: { type: string; amount: number }[]; seat?: number }
  | { kind: 'REDUCE'; bets: { type: string; amount: number }[] }
  | { kind: 'CANCEL'; types?: string[] };

export interface PlayerBoardOptions {
  playerId: string;
  round: Round;
  betTypes: readonly string[];
  /** The seat map, to offer a seat to claim. */
  seats: readonly SeatView[];
  wallet: Wallet | undefined;
  position: Position | undefined;
  currency: string;
  chip: () => number;
  change: (change: BetChange) => Promise<{ position: Position; balance: number }>;
  message: HTMLElement;
  problemContext: () => ProblemContext;
}

export interface PlayerBoard {
  node: HTMLElement;
  /** After "no va más": no more chips. */
  lock(): void;
}

export function seatText(position: Position | undefined): string {
  if (!position) return '';
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
  // Where the coup's first bet is made from: the seat held (else standing), or a seat to claim.
  const held = options.seats.find((s) => s.playerId === playerId);
  const seatPick = h(
    'select',
    { id: `${id}-seat`, class: 'seat-pick' },
    h('option', { value: '' }, held ? `seat ${held.seat} (held)` : 'standing'),
    options.seats
      .filter((s) => s !== held)
      .map((s) =>
        h(
          'option',
          { value: s.seat },
          `claim seat ${s.seat}${s.playerId ? (s.idle ? ` (${s.playerId} idle)` : ` (${s.playerId})`) : ''}`,
        ),
      ),
  );
  const act = (button: HTMLButtonElement, change: () => BetChange) =>
    void busy(
      button,
      options.message,
      async () => {
        const next = change();
        if (next.kind === 'BET' && next.bets.length === 0) throw new ApiError(400, 'BET_EMPTY', 'no bet');
        const answer = await options.change(next);
        options.position = answer.position;
        if (options.wallet) options.wallet = { ...options.wallet, balance: answer.balance };
        if (next.kind === 'BET') pending.clear();
        showError(options.message, undefined);
      },
      options.problemContext,
      playerId,
    ).then(update);
  place.addEventListener('click', () =>
    act(place, () => ({
      kind: 'BET',
      bets: [...pending].map(([type, amount]) => ({ type, amount })),
      ...(seatPick.value && !options.position && { seat: Number(seatPick.value) }),
    })),
  );
  const withdrawAll = h('button', { type: 'button', class: 'withdraw-all' }, 'Withdraw all');
  withdrawAll.addEventListener('click', () => act(withdrawAll, () => ({ kind: 'CANCEL' })));
  /** Per bet placed: take one chip off it (its whole amount when it is less), or withdraw it. */
  const changes = h('ul', { class: 'bet-changes', 'aria-label': `Change the bets of ${playerId}` });
  function renderChanges(): void {
    const bets = options.position?.bets ?? [];
    changes.replaceChildren(
      ...bets.map((b) => {
        const reduce = h(
          'button',
          { type: 'button', class: 'reduce', 'data-type': b.type },
          `Reduce ${betName(b.type)} by one chip`,
        );
        reduce.addEventListener('click', () =>
          act(reduce, () => ({
            kind: 'REDUCE',
            bets: [{ type: b.type, amount: Math.min(options.chip(), b.amount) }],
          })),
        );
        const withdraw = h(
          'button',
          { type: 'button', class: 'withdraw', 'data-type': b.type },
          `Withdraw ${betName(b.type)}`,
        );
        withdraw.addEventListener('click', () => act(withdraw, () => ({ kind: 'CANCEL', types: [b.type] })));
        return h('li', null, reduce, ' ', withdraw);
      }),
    );
  }

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
    // The coup's first bet fixes the player's place (seat or standing).
    seatPick.disabled = !betting || Boolean(options.position);
    withdrawAll.disabled = !betting || !position || position.bets.length === 0;
    if (betting) renderChanges();
  }

  const node = h(
    'article',
    { class: 'board', 'data-player': playerId, 'aria-labelledby': `${id}-name` },
    h('h3', { id: `${id}-name` }, playerId, ' ', seat),
    h('p', { class: 'wallet' }, balance),
    betting &&
      h(
        'p',
        { class: 'field seat-field' },
        h('label', { for: `${id}-seat` }, `Place of ${playerId}`),
        seatPick,
      ),
    betting && h('div', { class: 'spots', role: 'group', 'aria-label': `Bets of ${playerId}` }, spots),
    placed,
    betting && h('p', { class: 'actions' }, place, ' ', clear, ' ', withdrawAll),
    betting && changes,
  );
  update();
  return {
    node,
    lock() {
      for (const spot of spots) spot.disabled = true;
      place.disabled = true;
      clear.disabled = true;
      withdrawAll.disabled = true;
      seatPick.disabled = true;
      changes.querySelectorAll('button').forEach((button) => {
        button.disabled = true;
      });
    },
  };
}
