/**
 * The table (operator demo): sign in with an operator key, load a table, open a round, place the demo
 * players' bets with chips, "no va más", watch the coup dealt card by card from its step log, see the
 * payouts and balances, and the roads grow. Everything goes through the public API; nothing here
 * decides a rule.
 */
import '../styles.css';
import { ApiError, get, post, seg } from '../lib/api';
import { dealCoup } from '../lib/coup';
import { byId, fill, h } from '../lib/dom';
import { betTypes, chipValues, tableLimits } from '../lib/limits';
import { verifyLink } from '../lib/links';
import { formatMoney } from '../lib/money';
import { betName, type ProblemContext } from '../lib/problems';
import { renderPanel } from '../lib/roads';
import { keySlot, remember } from '../lib/session';
import { checkShoeStatement } from '../lib/shoe-check';
import type {
  KeyIdentity,
  LeaveTable,
  Position,
  Round,
  Scoreboard,
  SeatMap,
  Shoe,
  Table,
  Wallet,
} from '../lib/types';
import { announce, busy, facts, mono, showError } from '../lib/ui';
import { type BetChange, type PlayerBoard, playerBoard } from './player-board';
import {
  BURN_REASONS,
  CLOSE_REASONS,
  lockWords,
  paysText,
  payTables,
  seatMap,
  VOID_REASONS,
} from './table-facts';

const slot = keySlot('table');
const message = byId('message');
const status = byId('status');

interface State {
  key?: string;
  /** GET /v1/me: the key's role and what it may do (admin controls are offered to the admin key only). */
  identity?: KeyIdentity;
  tableId?: string;
  players: string[];
  table?: Table;
  shoe?: Shoe;
  /** The open round (bets or "no va más" under way). */
  round?: Round;
  /** The last round dealt in this tab: its coup and payouts stay on screen until the next round. */
  lastDealt?: Round;
  /** A shoe closed from this tab, to point at its verification. */
  closedShoeId?: string;
  wallets: Map<string, Wallet>;
  scoreboard?: Scoreboard;
  /** Who holds which seat (GET /v1/tables/{id}/seats), read for the round open now or the next. */
  seats?: SeatMap;
  chip?: number;
  /** What each player's "Leave table" answered, shown beside his wallet. */
  left: Map<string, string>;
}

const state: State = { players: [], wallets: new Map(), left: new Map() };
let boards: PlayerBoard[] = [];

const problemContext = (): ProblemContext => ({
  limits: state.table ? tableLimits(state.table) : undefined,
  currency: state.table?.config.currency,
});
const money = (minor: number, currency = state.table?.config.currency ?? 'EUR') =>
  formatMoney(minor, currency);

// ---- sign in ------------------------------------------------------------------------------------

const form = byId<HTMLFormElement>('signin');
const keyInput = byId<HTMLInputElement>('api-key');
const tableInput = byId<HTMLInputElement>('table-id');
const playersInput = byId<HTMLInputElement>('players');

const parsePlayers = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter(Boolean);

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const key = keyInput.value.trim();
  const tableId = tableInput.value.trim();
  if (!key || !tableId) return;
  slot.write(key);
  remember.write('table.id', tableId);
  remember.write('table.players', playersInput.value);
  keyInput.value = '';
  void start(key, tableId, parsePlayers(playersInput.value));
});

byId('signout').addEventListener('click', () => {
  slot.clear();
  Object.assign(state, {
    key: undefined,
    identity: undefined,
    table: undefined,
    shoe: undefined,
    round: undefined,
    lastDealt: undefined,
  });
  byId('signed-in').hidden = true;
  byId('table-area').hidden = true;
  byId('signin-box').hidden = false;
  showError(message, undefined);
  keyInput.focus();
});

onAction(byId<HTMLButtonElement>('refresh'), undefined, refresh);

async function start(key: string, tableId: string, players: string[]): Promise<void> {
  state.key = key;
  state.tableId = tableId;
  state.players = players.length > 0 ? players : ['player-1', 'player-2', 'player-3'];
  showError(message, undefined);
  const ok = await busy(undefined, message, refresh, problemContext);
  if (!ok && !state.table) {
    slot.clear();
    return;
  }
  byId('signin-box').hidden = true;
  byId('signed-in').hidden = false;
  byId('table-area').hidden = false;
  state.identity = await get<KeyIdentity>('/v1/me', { key }).catch(() => undefined);
  const role = state.identity ? `the ${state.identity.role} key` : 'key';
  byId('whoami').textContent = `Signed in with ${role} …${key.slice(-4)} at ${state.table?.name ?? tableId}.`;
  renderShoe();
}

// ---- loading ------------------------------------------------------------------------------------

async function refresh(): Promise<void> {
  const key = state.key;
  const tableId = state.tableId;
  if (!key || !tableId) return;
  const table = await get<Table>(`/v1/tables/${seg(tableId)}`, { key });
  state.table = table;
  state.chip ??= chipValues(table)[1] ?? chipValues(table)[0];
  const [shoe, round, scoreboard, seats] = await Promise.all([
    table.currentShoeId ? get<Shoe>(`/v1/shoes/${seg(table.currentShoeId)}`, { key }) : undefined,
    table.openRoundId ? get<Round>(`/v1/rounds/${seg(table.openRoundId)}`, { key }) : undefined,
    get<Scoreboard>(`/v1/tables/${seg(tableId)}/scoreboard`, { key }),
    get<SeatMap>(`/v1/tables/${seg(tableId)}/seats`, { key }),
  ]);
  state.shoe = shoe;
  state.round = round;
  state.scoreboard = scoreboard;
  state.seats = seats;
  await loadWallets();
  render();
}

async function loadWallets(): Promise<void> {
  const key = state.key;
  await Promise.all(
    state.players.map(async (playerId) => {
      try {
        state.wallets.set(playerId, await get<Wallet>(`/v1/wallets/${seg(playerId)}`, { key }));
      } catch {
        state.wallets.delete(playerId);
      }
    }),
  );
}

// ---- rendering ----------------------------------------------------------------------------------

function render(): void {
  renderLock();
  renderTableInfo();
  renderShoe();
  renderRound();
  renderScoreboard();
  renderPayoutBalances();
}

/** A locked table (key service or randomness failure) says why, and that an admin must clear it. */
function renderLock(): void {
  const banner = byId('lock-banner');
  const lock = state.table?.lock;
  if (!lock || !state.table) {
    banner.replaceChildren();
    delete banner.dataset.lock;
    return;
  }
  fill(banner, h('strong', null, 'Table locked'), ' — ', lockWords(lock, state.table.tableId));
  banner.dataset.lock = lock.cause;
}

/**
 * An action the API may refuse with 423 TABLE_LOCKED (open a shoe, open or deal a round): on that
 * refusal the table is read again so the lock banner says why.
 */
const lockAware = (action: () => Promise<void>) => async (): Promise<void> => {
  try {
    await action();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'TABLE_LOCKED') await refresh().catch(() => undefined);
    throw error;
  }
};

/**
 * One way to wire a table action to its button: on click the last error is cleared, the button is busy
 * while `action` runs, and a refusal goes to the alert region in words, prefixed with `doing`.
 */
function onAction(button: HTMLButtonElement, doing: string | undefined, action: () => Promise<void>): void {
  button.addEventListener(
    'click',
    () =>
      void busy(
        button,
        message,
        async () => {
          showError(message, undefined);
          await action();
        },
        problemContext,
        doing,
      ),
  );
}

function renderTableInfo(): void {
  const table = state.table;
  if (!table) return;
  const { config } = table;
  const limits = h(
    'ul',
    { class: 'limits' },
    Object.entries(tableLimits(table)).map(([type, limit]) =>
      h('li', null, `${betName(type)}: ${money(limit.min)} – ${money(limit.max)}`),
    ),
  );
  fill(
    byId('table-info'),
    h('h2', { id: 'table-title' }, table.name),
    facts(
      [
        ['Table', mono(table.tableId)],
        [
          'Game',
          `${config.name ?? config.variant} punto banco, ${config.decks} decks, ${config.seats} seats`,
        ],
        [
          'Banca mode',
          h('span', { 'data-banker-mode': config.bankerMode ?? 'COMMISSION' }, paysText(config)),
        ],
        ['Limits', limits],
        config.sideBets && ['Side bets', payTables(config, money)],
      ].filter((row): row is [string, HTMLElement] => Boolean(row)),
    ),
  );
}

/** Unknown (GET /v1/me unanswered): offered, and the API's refusal says why. */
const mayOpenAndClose = (): boolean => state.identity?.may.openAndCloseShoes ?? true;
const ADMIN_ONLY =
  'Opening and closing shoes needs the ADMIN key: this key may deal rounds and bet for players. Sign out and sign in with the admin key to do it.';

function renderShoe(): void {
  const box = byId('shoe');
  const table = state.table;
  if (!table) return;
  const shoe = state.shoe;
  const title = h('h2', { id: 'shoe-title' }, shoe ? `Shoe ${shoe.number}` : 'Shoe');
  if (!shoe) {
    const open = h(
      'button',
      { type: 'button', id: 'open-shoe', disabled: !mayOpenAndClose() },
      'Open a shoe',
    );
    onAction(
      open,
      'Opening a shoe',
      lockAware(async () => {
        await post<Shoe>(`/v1/tables/${seg(table.tableId)}/shoes`, { key: state.key });
        state.lastDealt = undefined;
        await refresh();
        announce(status, 'A new shoe is open: its seed is committed and signed.');
      }),
    );
    fill(
      box,
      title,
      h('p', null, 'No shoe is open on this table.', ' Opening one needs an admin key.'),
      !mayOpenAndClose() && h('p', { class: 'needs-key', id: 'shoe-needs-key' }, ADMIN_ONLY),
      state.closedShoeId &&
        h(
          'p',
          { class: 'closed-shoe' },
          'The last shoe is closed and its seed revealed: ',
          h('a', { href: verifyLink(state.closedShoeId) }, 'verify it'),
          '.',
        ),
      h('p', { class: 'actions' }, open),
    );
    return;
  }
  const signature = h('span', { class: 'check check-pending', 'data-check': 'signature' }, 'checking…');
  void checkShoeStatement(shoe).then((result) => {
    signature.className = `check ${result.ok ? 'check-pass' : 'check-fail'}`;
    signature.dataset.ok = String(result.ok);
    signature.textContent = `${result.ok ? '✓ ' : '✗ '}${result.text}`;
  });
  const phaseWords: Record<string, string> = {
    OPEN: 'in play',
    ENDED: 'ended: the cut card came out — close it to reveal the seed',
    CLOSING: 'closing',
    CLOSED: 'closed',
  };
  const close = h(
    'button',
    { type: 'button', id: 'close-shoe', disabled: !mayOpenAndClose() },
    shoe.ended ? 'Close the shoe and reveal its seed' : 'Close the shoe early',
  );
  // Before the cut card a close needs a reason (recorded and shown to regulators).
  const reason = h(
    'select',
    { id: 'close-reason' },
    h('option', { value: '' }, '— pick a reason —'),
    Object.entries(CLOSE_REASONS).map(([value, words]) => h('option', { value }, words)),
  );
  onAction(close, 'Closing the shoe', async () => {
    const body = !shoe.ended && reason.value ? { reason: reason.value } : {};
    const closed = await post<Shoe>(`/v1/shoes/${seg(shoe.shoeId)}/close`, { key: state.key, body });
    state.closedShoeId = closed.shoeId;
    await refresh();
    announce(status, `Shoe ${closed.number} is closed; its server seed is revealed.`);
  });
  fill(
    box,
    title,
    facts([
      ['Shoe', mono(shoe.shoeId)],
      ['State', h('span', { 'data-phase': shoe.phase }, phaseWords[shoe.phase] ?? shoe.phase)],
      ['Commitment', mono(shoe.commitment)],
      ['Signed statement', signature],
      ['Client seed', shoe.clientSeed ? mono(shoe.clientSeed) : 'fixed by the first round'],
      ['Coups dealt', String(shoe.coups)],
      ['Burn', shoe.burn ? `${shoe.burn.shown} shown, ${shoe.burn.burned} burned` : '—'],
    ]),
    !mayOpenAndClose() && h('p', { class: 'needs-key', id: 'shoe-needs-key' }, ADMIN_ONLY),
    shoe.ended
      ? h('p', { class: 'actions' }, close, ' (admin key)')
      : !state.round &&
          h(
            'p',
            { class: 'actions close-early' },
            h('label', { for: 'close-reason' }, 'Why close before the cut card'),
            ' ',
            reason,
            ' ',
            close,
            ' (admin key)',
          ),
  );
}

function renderRound(): void {
  const box = byId('round');
  const table = state.table;
  if (!table) return;
  const round = state.round;
  const shoe = state.shoe;
  if (!round) {
    boards = [];
    const open = h('button', { type: 'button', id: 'open-round' }, 'Open a round (“hagan sus apuestas”)');
    open.disabled = !shoe || shoe.ended;
    const seedInput = h('input', {
      id: 'client-seed',
      autocomplete: 'off',
      spellcheck: 'false',
      maxlength: 128,
    });
    // Only before the shoe's first round: after it the seed is fixed (409 CLIENT_SEED_ALREADY_FIXED).
    const needsSeed = shoe && !shoe.clientSeed && shoe.rounds === 0 && !shoe.contributions.closedAt;
    onAction(
      open,
      'Opening a round',
      lockAware(async () => {
        const body = needsSeed && seedInput.value.trim() ? { clientSeed: seedInput.value.trim() } : {};
        state.round = await post<Round>(`/v1/tables/${seg(table.tableId)}/rounds`, {
          key: state.key,
          body,
        });
        renderRound();
        announce(status, `Coup ${state.round.coup}: bets are open.`);
        box.querySelector<HTMLButtonElement>('.spot')?.focus();
      }),
    );
    fill(
      box,
      h('h2', { id: 'round-title' }, 'Round'),
      h(
        'p',
        null,
        !shoe
          ? 'Open a shoe first.'
          : shoe.ended
            ? 'The shoe has ended: no more rounds.'
            : 'No round is open.',
      ),
      needsSeed &&
        h(
          'p',
          { class: 'field' },
          h('label', { for: 'client-seed' }, 'Client seed (the first round fixes it; random if empty)'),
          seedInput,
        ),
      h('p', { class: 'actions' }, open),
      walletList(),
    );
    renderLastCoupBanner();
    return;
  }
  renderLastCoupBanner();
  const betting = round.status === 'OPEN';
  const chips = chipValues(table);
  const chipPicker = h(
    'fieldset',
    { class: 'chips' },
    h('legend', null, 'Chip'),
    chips.map((value, i) =>
      h(
        'label',
        { class: 'chip' },
        h('input', {
          type: 'radio',
          name: 'chip',
          value,
          checked: value === state.chip,
          onchange: () => {
            state.chip = value;
          },
          'data-chip': i,
        }),
        h('span', null, money(value)),
      ),
    ),
  );
  boards = state.players.map((playerId) =>
    playerBoard({
      playerId,
      round,
      betTypes: betTypes(table),
      seats: state.seats?.seats ?? [],
      wallet: state.wallets.get(playerId),
      position: round.positions.find((p) => p.playerId === playerId),
      currency: table.config.currency,
      chip: () => state.chip ?? chips[0]!,
      change: (change) => changeBets(round, playerId, change),
      message,
      problemContext,
    }),
  );
  const resolve = h(
    'button',
    { type: 'button', id: 'resolve', class: 'primary' },
    '“No va más” — deal the coup',
  );
  onAction(
    resolve,
    undefined,
    lockAware(() => resolveRound(round)),
  );
  fill(
    box,
    h(
      'h2',
      { id: 'round-title' },
      `Coup ${round.coup}`,
      ' ',
      h('span', { class: 'pill', 'data-phase': round.status }, statusWords(round.status)),
    ),
    placesLine(round),
    state.seats && seatMap(state.seats),
    betting && chipPicker,
    h(
      'div',
      { class: 'boards' },
      boards.map((b) => b.node),
    ),
    h('p', { class: 'actions' }, resolve),
    voidControl(round),
  );
}

/** "Void the round" with the reason the API takes, a note, and the dealer-error burn of seed 004. */
function voidControl(round: Round): HTMLElement {
  const reason = h(
    'select',
    { id: 'void-reason' },
    h('option', { value: '' }, '— pick a reason —'),
    Object.entries(VOID_REASONS).map(([value, words]) => h('option', { value }, words)),
  );
  const note = h('input', { id: 'void-note', autocomplete: 'off', maxlength: 500 });
  const burn = h('input', { id: 'void-burn', type: 'checkbox' });
  const button = h('button', { type: 'button', id: 'void-round' }, 'Void the round');
  onAction(button, 'Voiding the round', async () => {
    const body = {
      reason: reason.value,
      ...(note.value.trim() && { note: note.value.trim() }),
      ...(burn.checked && { burnCards: true }),
    };
    const voided = await post<Round>(`/v1/rounds/${seg(round.roundId)}/void`, { key: state.key, body });
    state.round = undefined;
    const area = byId('coup-area');
    delete area.dataset.resolved;
    area.dataset.voided = voided.status;
    const refunded = voided.positions.reduce((sum, p) => sum + p.stake, 0);
    fill(
      area,
      h(
        'p',
        { class: 'voided', 'data-round': voided.roundId },
        `Coup ${voided.coup} ${voided.status === 'VOIDED' ? 'voided' : 'being voided'} (${voided.voidReason ? VOID_REASONS[voided.voidReason] : reason.value}): `,
        `${voided.positions.length} position${voided.positions.length === 1 ? '' : 's'}, ${money(refunded)} refunded.`,
        voided.burned
          ? ` Its cards were burned unplayed: ${voided.burned.cards.join(' ')}${voided.burned.cutCardOut ? ' — they brought out the cut card.' : '.'}`
          : '',
      ),
    );
    await refresh();
    announce(status, `Coup ${voided.coup} voided; the stakes are refunded.`);
  });
  return h(
    'details',
    { class: 'void-round' },
    h('summary', null, 'Void this round (irregularity)'),
    h(
      'div',
      { class: 'form-row' },
      h('p', { class: 'field' }, h('label', { for: 'void-reason' }, 'Reason'), reason),
      h('p', { class: 'field' }, h('label', { for: 'void-note' }, 'Note (optional)'), note),
      h(
        'p',
        { class: 'field' },
        h(
          'label',
          { for: 'void-burn' },
          `Burn the coup's cards (only for ${BURN_REASONS.map((r) => VOID_REASONS[r]).join(' or ')})`,
        ),
        burn,
      ),
      h('p', { class: 'actions' }, button),
    ),
  );
}

/** How many bet from a seat and how many stand in this coup. */
function placesLine(round: Round): HTMLElement {
  const seated = round.positions.filter((p) => p.seat !== null).length;
  const standing = round.positions.length - seated;
  return h(
    'p',
    { class: 'seats', 'data-seated': seated, 'data-standing': standing },
    `In this coup: ${seated} seated, ${standing} standing (standing bettors are unlimited).`,
  );
}

/** A round's status in words (every status the API has: docs/api.md, Statuses). */
function statusWords(status: Round['status']): string {
  const words: Record<Round['status'], string> = {
    OPEN: 'bets open',
    CLOSED: '“no va más”',
    DEALT: 'dealt, settling',
    SETTLING: 'settling',
    SETTLED: 'settled',
    VOIDING: 'voiding',
    VOIDED: 'voided',
  };
  return words[status] ?? status.toLowerCase();
}

function walletList(): HTMLElement {
  return h(
    'ul',
    { class: 'wallets', 'aria-label': 'Wallets' },
    state.players.map((playerId) => {
      const wallet = state.wallets.get(playerId);
      const seat = state.seats?.seats.find((x) => x.playerId === playerId);
      return h(
        'li',
        { 'data-player': playerId },
        h('strong', null, playerId),
        ': ',
        wallet ? h('span', { class: 'balance' }, money(wallet.balance, wallet.currency)) : 'no wallet',
        wallet && wallet.commissionOwed > 0
          ? ` (commission owed ${money(wallet.commissionOwed, wallet.currency)})`
          : '',
        seat ? ` — holds seat ${seat.seat}${seat.idle ? ' (idle: free to claim)' : ''}` : '',
        ' ',
        // Leaving is for a player at the table: one holding a seat or owing commission (not every demo name).
        (seat || (wallet && wallet.commissionOwed > 0)) && leaveButton(playerId),
        state.left.has(playerId) &&
          h('span', { class: 'left', role: 'status' }, ` ${state.left.get(playerId)}`),
      );
    }),
  );
}

/** "Leave table": the deferred commission he owes for the shoe is collected, his seat freed. */
function leaveButton(playerId: string): HTMLButtonElement {
  const tableId = state.tableId ?? '';
  const button = h(
    'button',
    { type: 'button', class: 'leave', 'data-leave': playerId, 'aria-label': `Leave table (${playerId})` },
    'Leave table',
  );
  onAction(button, `${playerId} leaving`, async () => {
    const left = await post<LeaveTable>(`/v1/tables/${seg(tableId)}/players/${seg(playerId)}/leave`, {
      key: state.key,
      body: {},
    });
    const currency = state.wallets.get(playerId)?.currency;
    const words =
      `${playerId} left: commission collected ${money(left.commissionCollected, currency)}, ` +
      `balance ${money(left.balance, currency)}${left.seatReleased === null ? '' : `, seat ${left.seatReleased} freed`}.`;
    state.left.set(playerId, words);
    await refresh();
    announce(status, words);
  });
  return button;
}

/** "Última mano" as the API announces it (`lastCoup`: from the round's opening when known, else once dealt). */
function renderLastCoupBanner(): void {
  const banner = byId('last-coup-banner');
  if (state.round?.lastCoup) {
    fill(
      banner,
      h('strong', null, 'Última mano'),
      ' — the cut card is out: this coup is the last of the shoe.',
    );
    banner.dataset.lastCoup = 'this';
  } else if (state.lastDealt?.lastCoup || state.shoe?.ended) {
    fill(
      banner,
      h('strong', null, 'Última mano'),
      ' — the cut card has come out: that was the last coup of this shoe.',
    );
    banner.dataset.lastCoup = 'done';
  } else {
    banner.replaceChildren();
    delete banner.dataset.lastCoup;
  }
}

/** A bet, a reduction or a withdrawal: the API answers the whole position and the balance after. */
async function changeBets(round: Round, playerId: string, change: BetChange) {
  const path = `/v1/rounds/${seg(round.roundId)}/bets${change.kind === 'BET' ? '' : change.kind === 'REDUCE' ? '/reduce' : '/cancel'}`;
  const body =
    change.kind === 'CANCEL'
      ? { playerId, ...(change.types && { types: change.types }) }
      : { playerId, bets: change.bets, ...(change.kind === 'BET' && change.seat && { seat: change.seat }) };
  const answer = await post<{ position: Position; balance: number }>(path, { key: state.key, body });
  showError(message, undefined);
  const wallet = state.wallets.get(playerId);
  if (wallet) state.wallets.set(playerId, { ...wallet, balance: answer.balance });
  const index = round.positions.findIndex((p) => p.playerId === playerId);
  if (index >= 0) round.positions[index] = answer.position;
  else round.positions.push(answer.position);
  const verb =
    change.kind === 'BET' ? 'bets placed' : change.kind === 'REDUCE' ? 'bet reduced' : 'bets withdrawn';
  announce(status, `${playerId}: ${verb}, stake ${money(answer.position.stake)}.`);
  document.querySelector('#round .seats')?.replaceWith(placesLine(round));
  if (change.kind === 'BET' && change.seat) {
    // A claimed seat changes the map.
    state.seats = await get<SeatMap>(`/v1/tables/${seg(round.tableId)}/seats`, { key: state.key });
    document.getElementById('seat-map')?.replaceWith(seatMap(state.seats));
  }
  return { position: answer.position, balance: answer.balance };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A round the API handed to the settlement queue (`SETTLING`) is read until it is `SETTLED`: payouts
 * are drawn only from a settled round.
 */
async function untilSettled(round: Round): Promise<Round> {
  let current = round;
  for (let wait = 250; current.status !== 'SETTLED'; wait = Math.min(wait * 2, 2_000)) {
    if (current.status !== 'SETTLING' && current.status !== 'DEALT') {
      throw new Error(`the round is ${current.status.toLowerCase()}, not settled`);
    }
    await sleep(wait);
    current = await get<Round>(`/v1/rounds/${seg(round.roundId)}`, { key: state.key });
  }
  return current;
}

/** "No va más": the coup is dealt card by card, the round read until settled, the payouts shown. */
async function resolveRound(round: Round): Promise<void> {
  const area = byId('coup-area');
  for (const b of boards) b.lock();
  const answer = await post<Round>(`/v1/rounds/${seg(round.roundId)}/resolve`, { key: state.key });
  state.round = undefined;
  if (!answer.result) throw new Error('the round was resolved without a coup');
  delete area.dataset.voided;
  area.dataset.resolved = answer.status;
  const pill = byId('round').querySelector<HTMLElement>('.pill');
  if (pill) {
    pill.dataset.phase = answer.status;
    pill.textContent = statusWords(answer.status);
  }
  await dealCoup(area, answer.result, `Coup ${answer.coup}`);
  const settling = h(
    'p',
    { class: 'settling', role: 'status' },
    answer.status === 'SETTLED' ? '' : 'Settling: the positions are paid in batches…',
  );
  area.append(settling);
  const dealt = answer.status === 'SETTLED' ? answer : await untilSettled(answer);
  settling.textContent =
    answer.status === 'SETTLED' ? '' : 'Settled: every position was paid by the settlement queue.';
  state.lastDealt = dealt;
  area.append(payouts(dealt));
  area.dataset.coup = String(dealt.coup);
  await refresh();
  const outcomes = state.scoreboard?.coups.find((c) => c.roundId === dealt.roundId)?.sideBets ?? [];
  if (outcomes.length > 0) {
    area.append(
      h(
        'p',
        { class: 'side-bets', 'data-side-bets': outcomes.map((o) => `${o.type}:${o.result}`).join(' ') },
        'Side bets this coup: ',
        outcomes
          .map((o) => `${betName(o.type)} ${RESULT_WORDS[o.result] ?? o.result.toLowerCase()}`)
          .join(', '),
        '.',
      ),
    );
  }
  announce(status, `Coup ${dealt.coup} dealt and settled.`);
  byId<HTMLButtonElement>('open-round').focus();
}

const RESULT_WORDS: Record<string, string> = { WIN: 'won', LOSE: 'lost', PUSH: 'pushed' };

function payouts(round: Round): HTMLElement {
  const rows = round.positions.map((p) => {
    const net = (p.payout ?? 0) - p.stake;
    const wallet = state.wallets.get(p.playerId);
    return h(
      'tr',
      { 'data-player': p.playerId },
      h('th', { scope: 'row' }, p.playerId),
      h(
        'td',
        null,
        p.bets
          .map(
            (b) =>
              `${betName(b.type)} ${money(b.amount)} ${b.result ? (RESULT_WORDS[b.result] ?? b.result.toLowerCase()) : ''}`,
          )
          .join(', '),
      ),
      h('td', { class: 'num' }, money(p.stake)),
      h('td', { class: 'num', 'data-payout': p.payout ?? 0 }, money(p.payout ?? 0)),
      h('td', { class: 'num' }, money((p.commission ?? 0) + (p.commissionOwed ?? 0))),
      h(
        'td',
        { class: `num ${net > 0 ? 'won' : net < 0 ? 'lost' : ''}` },
        `${net > 0 ? '+' : ''}${money(net)}`,
      ),
      h('td', { class: 'num balance-after' }, wallet ? money(wallet.balance, wallet.currency) : '…'),
    );
  });
  const table = h(
    'table',
    { class: 'payouts', id: 'payouts' },
    h('caption', null, `Payouts of coup ${round.coup}`),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['Player', 'Bets', 'Stake', 'Paid', 'Commission', 'Net', 'Balance'].map((c) =>
          h('th', { scope: 'col' }, c),
        ),
      ),
    ),
    h('tbody', null, rows.length ? rows : h('tr', null, h('td', { colspan: 7 }, 'No bets this coup.'))),
  );
  return h('div', { class: 'table-scroll', tabindex: 0, role: 'group', 'aria-label': 'Payouts' }, table);
}

function renderScoreboard(): void {
  const box = byId('scoreboard');
  const scoreboard = state.scoreboard;
  fill(
    box,
    h('h2', { id: 'scoreboard-title' }, 'Scoreboard'),
    h(
      'p',
      { class: 'hint' },
      scoreboard?.shoeId
        ? 'This shoe’s results; a new shoe starts a new panel.'
        : 'No shoe in play: the panel is empty.',
    ),
    scoreboard && renderPanel(scoreboard.panel),
  );
}

/** The payouts table shows the balances read after the coup (filled in once the wallets are read). */
function renderPayoutBalances(): void {
  document.querySelectorAll<HTMLElement>('#payouts tr[data-player]').forEach((row) => {
    const wallet = state.wallets.get(row.dataset.player ?? '');
    const balance = row.querySelector('.balance-after');
    if (wallet && balance) balance.textContent = money(wallet.balance, wallet.currency);
  });
}

// ---- start --------------------------------------------------------------------------------------

const params = new URLSearchParams(location.search);
tableInput.value = params.get('table') ?? remember.read('table.id') ?? '';
playersInput.value = remember.read('table.players') ?? playersInput.value;
const saved = slot.read();
if (saved && tableInput.value) void start(saved, tableInput.value, parsePlayers(playersInput.value));
