/**
 * The game client (`/play`, opened by a launch URL): one player at one table, driven by the table's
 * live events (./live.ts). Betting spots on a felt, chips of the table's denominations, place / undo /
 * clear / rebet / double, the countdown to "no va más" from the round's own instant, the cards as they
 * are dealt, the result and what he won net of commission, his balance, the five roads, the limits and
 * his last rounds with their proofs. The player id is the token's; no API key ever reaches this page.
 */
import '../styles.css';
import './play.css';
import { parseCard, pointValue } from '@pyb/engine';
import { ApiError, get, post, seg } from '../lib/api';
import { cardFace, cardName } from '../lib/cards';
import { byId, fill, h } from '../lib/dom';
import { betTypes, chipValues, tableLimits } from '../lib/limits';
import { verifyLink } from '../lib/links';
import { formatMoney } from '../lib/money';
import { betName, describeError } from '../lib/problems';
import { renderPanel } from '../lib/roads';
import type {
  PlaceBetResponse,
  PlayerRecall,
  Position,
  Round,
  Scoreboard,
  Shoe,
  Table,
  Wallet,
} from '../lib/types';
import { paysText } from '../table/table-facts';
import {
  ES_BET_NAMES,
  ES_PROBLEMS,
  ES_ROAD_WORDS,
  type Lang,
  type MessageKey,
  paysTextEs,
  pickLang,
  say,
} from './i18n';
import { type FeedState, followTable, type LiveEvent, type PlayerMessage } from './live';
import { Sessions, takeLaunchToken } from './session';
import { BetSlip } from './slip';

type Side = 'PLAYER' | 'BANKER';
type Phase = 'WAITING' | 'OPEN' | 'CLOSED' | 'DEALT' | 'SETTLED' | 'VOIDED';

const lang: Lang = pickLang(location.search, navigator.languages);
const t = (key: MessageKey, vars?: Record<string, string | number>) => say(lang, key, vars);
document.documentElement.lang = lang;

const state = {
  table: undefined as Table | undefined,
  playerId: '',
  currency: 'EUR',
  balance: undefined as number | undefined,
  roundId: undefined as string | undefined,
  number: undefined as number | undefined,
  phase: 'WAITING' as Phase,
  /** Betting closes at this instant of the server's clock, and the server's clock runs `skew` ms ahead of ours. */
  closesAt: undefined as number | undefined,
  skew: 0,
  lastCoup: false,
  shoeId: undefined as string | undefined,
  beaconRound: undefined as number | undefined,
  hands: { PLAYER: [] as string[], BANKER: [] as string[] },
  /** The bets the operator switched off for this round (Round.betsOff): their spots take nothing. */
  betsOff: new Set<string>(),
  /** His bets on the table this round (his position after the last accepted call). */
  placed: new Map<string, number>(),
  /** His bets of the last round he played: what "rebet" puts back. */
  lastBets: new Map<string, number>() as ReadonlyMap<string, number>,
  chip: 0,
};
const slip = new BetSlip();
/** The Idempotency-Key of the slip as it stands: a retry of the same slip reuses it, a change makes a new one. */
let slipKey: string | undefined;

const money = (minor: number) => formatMoney(minor, state.currency, lang === 'es' ? 'es-ES' : 'en-GB');
const SIDE_WORD: Record<Side | 'TIE', MessageKey> = { PLAYER: 'punto', BANKER: 'banca', TIE: 'empate' };

// ---- the page's parts ----------------------------------------------------------------------------

const message = byId('message');
const phaseLine = byId('phase');
const countdown = byId('countdown');
const fairLine = byId('fair');
const outcome = byId('outcome');
const balanceOut = byId('balance');
const connection = byId('connection');
const feltNode = byId('felt');
const chipsNode = byId('chips');
const slipLine = byId('slip');
const roadsNode = byId('roads');
const historyNode = byId('history');
const limitsNode = byId('limits');
const dealOrder = byId('deal-order');

const hand = (side: Side) => ({
  cards: byId(`${side.toLowerCase()}-cards`),
  total: byId(`${side.toLowerCase()}-total`),
});
const hands = { PLAYER: hand('PLAYER'), BANKER: hand('BANKER') };

const buttons = {
  place: byId<HTMLButtonElement>('place'),
  undo: byId<HTMLButtonElement>('undo'),
  clear: byId<HTMLButtonElement>('clear'),
  rebet: byId<HTMLButtonElement>('rebet'),
  double: byId<HTMLButtonElement>('double'),
};
const spotAmounts = new Map<string, HTMLElement>();
const spotButtons: HTMLButtonElement[] = [];

/** The words of a refusal, in the page's language where it has them, with the limit in money. */
function refusal(error: unknown): string {
  const code = error instanceof ApiError ? error.code : undefined;
  const spanish = lang === 'es' && code ? ES_PROBLEMS[code as keyof typeof ES_PROBLEMS] : undefined;
  const limits = state.table ? tableLimits(state.table) : undefined;
  return spanish ?? describeError(error, { ...(limits && { limits }), currency: state.currency });
}

function show(node: HTMLElement, text: string): void {
  node.textContent = text;
}

/** A bet type as players call it, in the page's language. */
const spotName = (type: string): string => (lang === 'es' ? ES_BET_NAMES[type] : undefined) ?? betName(type);

// ---- drawing ---------------------------------------------------------------------------------------

const points = (cards: readonly string[]) =>
  cards.reduce((sum, c) => (sum + pointValue(parseCard(c))) % 10, 0);

function drawHands(freshCard?: string): void {
  for (const side of ['PLAYER', 'BANKER'] as const) {
    const cards = state.hands[side];
    hands[side].cards.replaceChildren(
      ...cards.map((c, i) => cardFace(c, { fresh: c === freshCard && i === cards.length - 1 })),
    );
    hands[side].total.textContent = cards.length > 0 ? String(points(cards)) : '';
  }
}

function drawPhase(): void {
  const betting = state.phase === 'OPEN';
  const words: Record<Phase, string> = {
    WAITING: t('waiting'),
    OPEN: t('betsOpen'),
    CLOSED: t('noMoreBets'),
    DEALT: t('dealing'),
    SETTLED: t('settled'),
    VOIDED: t('voided'),
  };
  const round = state.number === undefined ? '' : `${t('round', { number: state.number })} · `;
  phaseLine.textContent = `${round}${words[state.phase]}`;
  phaseLine.dataset.phase = state.phase;
  for (const b of spotButtons) {
    const off = state.betsOff.has(b.dataset.type ?? '');
    b.disabled = !betting || off;
    b.toggleAttribute('data-off', off);
  }
  chipsNode.querySelectorAll('input').forEach((input) => {
    input.disabled = !betting;
  });
  buttons.place.disabled = !betting || slip.empty;
  buttons.undo.disabled = !betting || slip.empty;
  buttons.clear.disabled = !betting || slip.empty;
  buttons.rebet.disabled = !betting || state.lastBets.size === 0;
  buttons.double.disabled = !betting || (slip.empty && state.placed.size === 0);
  byId('last-hand').hidden = !state.lastCoup;
}

function secondsLeft(): number {
  if (state.closesAt === undefined) return 0;
  return Math.max(0, Math.ceil((state.closesAt - (Date.now() + state.skew)) / 1000));
}

/** The seconds to "no va más", in a role=timer element (not announced each second; read on demand). */
function drawCountdown(): void {
  if (state.phase !== 'OPEN' || state.closesAt === undefined) {
    countdown.textContent = '';
    delete countdown.dataset.seconds;
    return;
  }
  const left = secondsLeft();
  countdown.textContent = t('secondsLeft', { seconds: left });
  countdown.dataset.seconds = String(left);
}

function drawSpots(): void {
  for (const [type, node] of spotAmounts) {
    const placed = state.placed.get(type) ?? 0;
    const pending = slip.bets.get(type) ?? 0;
    node.textContent = [placed > 0 && money(placed), pending > 0 && `+${money(pending)}`]
      .filter(Boolean)
      .join(' ');
  }
  let onTable = 0;
  for (const amount of state.placed.values()) onTable += amount;
  slipLine.textContent = [
    onTable > 0 && t('onTable', { amount: money(onTable) }),
    !slip.empty && t('pending', { amount: money(slip.total) }),
  ]
    .filter(Boolean)
    .join(' · ');
  drawPhase();
}

function drawBalance(): void {
  balanceOut.textContent = state.balance === undefined ? '—' : money(state.balance);
}

function drawFair(shoe: Shoe | undefined): void {
  fill(
    fairLine,
    shoe &&
      h(
        'span',
        null,
        `${t('shoe')} ${shoe.number} · ${t('commitment')} `,
        h('code', { class: 'mono', title: shoe.commitment }, `${shoe.commitment.slice(0, 16)}…`),
      ),
    state.beaconRound !== undefined && ` · ${t('beaconRound')} ${state.beaconRound}`,
    shoe?.status === 'CLOSED' && [' · ', h('a', { href: verifyLink(shoe.shoeId) }, t('verifyShoe'))],
  );
}

let shoeView: Shoe | undefined;
async function loadShoe(shoeId: string | undefined): Promise<void> {
  if (!shoeId) return;
  shoeView = await get<Shoe>(`/v1/shoes/${seg(shoeId)}`, { key: await sessions.token() }).catch(
    () => shoeView,
  );
  drawFair(shoeView);
}

async function loadRoads(): Promise<void> {
  if (!state.table) return;
  const board = await get<Scoreboard>(`/v1/tables/${seg(state.table.tableId)}/scoreboard`, {
    key: await sessions.token(),
  }).catch(() => undefined);
  if (board) fill(roadsNode, renderPanel(board.panel, lang === 'es' ? ES_ROAD_WORDS : undefined));
}

async function loadWallet(): Promise<void> {
  const wallet = await get<Wallet>(`/v1/wallets/${seg(state.playerId)}`, {
    key: await sessions.token(),
  }).catch(() => undefined);
  if (wallet) {
    state.balance = wallet.balance;
    state.currency = wallet.currency;
    drawBalance();
  }
}

async function loadHistory(): Promise<void> {
  const recall = await get<PlayerRecall>(`/v1/players/${seg(state.playerId)}/rounds`, {
    key: await sessions.token(),
    query: { limit: 5 },
  }).catch(() => undefined);
  if (!recall) return;
  const rounds = [...recall.rounds].reverse();
  fill(
    historyNode,
    rounds.length === 0
      ? h('p', null, t('noHistory'))
      : h(
          'ul',
          { class: 'play-history' },
          rounds.map((r) => {
            const mine = r.positions[0];
            const result = r.coup
              ? `${t('wins', { side: t(SIDE_WORD[r.coup.winner]) })} ${r.coup.player.total}–${r.coup.banker.total}`
              : r.status;
            return h(
              'li',
              { 'data-round': r.roundId },
              `${t('round', { number: r.number })}: ${result}`,
              mine && ` · ${money(mine.stake)} → ${money(mine.payout ?? 0)}`,
              ' · ',
              h('a', { href: verifyLink(r.shoeId) }, t('proof')),
            );
          }),
        ),
  );
}

/** His position in the round open now (a reload mid-round shows his bets). */
async function loadPosition(roundId: string): Promise<void> {
  const round = await get<Round>(`/v1/rounds/${seg(roundId)}`, { key: await sessions.token() }).catch(
    () => undefined,
  );
  const mine: Position | undefined = round?.positions.find((p) => p.playerId === state.playerId);
  if (round && state.roundId === roundId) {
    state.betsOff = new Set(round.betsOff ?? []);
    drawSpots();
  }
  if (mine && state.roundId === roundId) {
    state.placed = new Map(mine.bets.map((b) => [b.type, b.amount]));
    drawSpots();
  }
}

// ---- the table's events ----------------------------------------------------------------------------

function onTable(event: LiveEvent, live: boolean): void {
  const d = event.data as Record<string, unknown>;
  if (live) state.skew = Date.parse(event.at) - Date.now();
  switch (event.type) {
    case 'SHOE_OPENED':
      state.shoeId = event.shoeId;
      if (live) void loadShoe(event.shoeId);
      break;
    case 'ROUND_OPENED':
      if (state.placed.size > 0) state.lastBets = new Map(state.placed);
      state.placed = new Map();
      slip.clear();
      slipKey = undefined;
      state.roundId = event.roundId;
      state.number = typeof d.number === 'number' ? d.number : undefined;
      state.closesAt = typeof d.closesAt === 'string' ? Date.parse(d.closesAt) : undefined;
      state.lastCoup = d.lastCoup === true;
      state.betsOff = new Set(Array.isArray(d.betsOff) ? (d.betsOff as string[]) : []);
      state.phase = 'OPEN';
      state.beaconRound = undefined;
      state.hands = { PLAYER: [], BANKER: [] };
      if (event.shoeId && event.shoeId !== state.shoeId) {
        state.shoeId = event.shoeId;
        if (live) void loadShoe(event.shoeId);
      }
      outcome.textContent = '';
      byId('my-result').textContent = '';
      dealOrder.replaceChildren();
      drawFair(shoeView);
      drawHands();
      drawSpots();
      drawCountdown();
      break;
    case 'NO_VA_MAS':
      state.phase = 'CLOSED';
      state.beaconRound = typeof d.beaconRound === 'number' ? d.beaconRound : undefined;
      drawFair(shoeView);
      drawPhase();
      drawCountdown();
      break;
    case 'CARD_DEALT': {
      const card = String(d.card);
      const to = d.to === 'BANKER' ? 'BANKER' : 'PLAYER';
      state.phase = 'DEALT';
      state.hands[to].push(card);
      drawHands(live ? card : undefined);
      dealOrder.append(
        h('li', { 'data-card': card, 'data-to': to }, `${t(SIDE_WORD[to])}: ${cardName(card)}`),
      );
      if (live) announce(`${t(SIDE_WORD[to])}: ${cardName(card)}`);
      drawPhase();
      break;
    }
    case 'RESULT': {
      const winner = d.winner as Side | 'TIE';
      const p = d.player as { cards: string[]; total: number };
      const b = d.banker as { cards: string[]; total: number };
      state.hands = { PLAYER: [...p.cards], BANKER: [...b.cards] };
      drawHands();
      outcome.dataset.winner = winner;
      outcome.textContent = `${winner === 'TIE' ? t('tie') : t('wins', { side: t(SIDE_WORD[winner]) })} ${p.total}–${b.total}${d.natural ? ` (${t('natural')})` : ''}`;
      break;
    }
    case 'SCOREBOARD':
      if (live) void loadRoads();
      break;
    case 'ROUND_SETTLED':
      state.phase = 'SETTLED';
      drawPhase();
      if (live) void loadHistory();
      break;
    case 'ROUND_VOIDED':
      state.phase = 'VOIDED';
      state.placed = new Map();
      drawSpots();
      break;
    case 'SHOE_ENDED':
    case 'SHOE_CLOSED':
      state.lastCoup = false;
      show(message, t('shoeEnded'));
      if (live) void loadShoe(event.shoeId ?? state.shoeId);
      break;
    case 'TABLE_LOCKED':
      show(message, t('tableLocked', { reason: String(d.source ?? d.cause ?? '') }));
      break;
    case 'TABLE_UNLOCKED':
    case 'TABLE_ENABLED':
      message.textContent = '';
      break;
    case 'TABLE_DISABLED':
      show(message, t('tableDisabled', { reason: String(d.reason ?? '') }));
      break;
    case 'BET_DISABLED':
      // From the next round on: the round open now keeps the bet (its spot stays as it is).
      if (live) show(message, t('betDisabled', { bet: spotName(String(d.betType)) }));
      break;
    default:
      break;
  }
}

function onPlayer(m: PlayerMessage): void {
  const d = m.data;
  if (m.type === 'BALANCE' && typeof d.balance === 'number') {
    state.balance = d.balance;
    drawBalance();
  } else if (m.type === 'BET_ACCEPTED' && m.roundId === state.roundId && Array.isArray(d.bets)) {
    state.placed = new Map((d.bets as { type: string; amount: number }[]).map((b) => [b.type, b.amount]));
    drawSpots();
  } else if (m.type === 'PAYOUT') {
    const stake = Number(d.stake);
    const payout = Number(d.payout);
    const commission = Number(d.commission);
    const net = payout - stake;
    const words =
      net > 0
        ? t('youWon', { amount: money(net) })
        : net < 0
          ? t('youLost', { amount: money(-net) })
          : t('youBroke', { amount: money(stake) });
    const result = byId('my-result');
    result.textContent =
      commission > 0 ? `${words} (${t('commission', { amount: money(commission) })})` : words;
    result.dataset.net = String(net);
    announce(result.textContent);
  }
}

/** Whether the page has been live before: a later 'live' is a reconnection. */
let wasLive = false;

function onFeedState(feed: FeedState): void {
  connection.textContent = t(
    feed === 'live' ? 'connected' : feed === 'connecting' ? 'connecting' : 'reconnecting',
  );
  connection.dataset.state = feed;
  if (feed !== 'live') return;
  // His bets in the round the catch-up found open (a reload mid-round shows them).
  if (state.roundId && state.phase === 'OPEN') void loadPosition(state.roundId);
  // Connected again, the table caught up: his own events carry no seq, so what they would have told
  // him while away (payout, balance) and the roads are read back; the first connection follows the
  // page's start, which has just read them.
  if (wasLive) {
    void loadRoads();
    void loadWallet();
    void loadHistory();
  }
  wasLive = true;
}

const live = byId('announcer');
function announce(text: string): void {
  live.textContent = text;
}

// ---- betting -----------------------------------------------------------------------------------------

function slipChanged(): void {
  slipKey = undefined;
  message.textContent = '';
  drawSpots();
}

async function placeBets(): Promise<void> {
  if (!state.roundId || slip.empty || !state.table) return;
  slipKey ??= crypto.randomUUID();
  buttons.place.disabled = true;
  try {
    const answer = await post<PlaceBetResponse>(`/v1/rounds/${seg(state.roundId)}/bets`, {
      key: await sessions.token(),
      idempotencyKey: slipKey,
      body: { playerId: state.playerId, bets: slip.request(betTypes(state.table)) },
    });
    state.placed = new Map(answer.position.bets.map((b) => [b.type, b.amount]));
    state.balance = answer.balance;
    slip.clear();
    slipKey = undefined;
    drawBalance();
    show(message, t('accepted', { amount: money(answer.position.stake) }));
    message.dataset.kind = 'ok';
  } catch (error) {
    message.dataset.kind = 'refused';
    message.dataset.code = error instanceof ApiError ? error.code : '';
    show(message, refusal(error));
  } finally {
    drawSpots();
  }
}

function buildFelt(table: Table): void {
  const limits = tableLimits(table);
  fill(
    feltNode,
    betTypes(table).map((type) => {
      const amount = h('span', { class: 'spot-amount' });
      spotAmounts.set(type, amount);
      const limit = limits[type];
      const name = spotName(type);
      const button = h(
        'button',
        {
          type: 'button',
          class: `spot spot-${type.toLowerCase()}`,
          'data-type': type,
          'aria-describedby': 'slip',
        },
        h('span', { class: 'spot-name' }, name),
        limit && h('span', { class: 'spot-limit' }, `${money(limit.min)}–${money(limit.max)}`),
        amount,
      );
      button.addEventListener('click', () => {
        slip.add(type, state.chip);
        slipChanged();
      });
      spotButtons.push(button);
      return button;
    }),
  );
  const chips = chipValues(table);
  state.chip = chips[0] ?? 0;
  fill(
    chipsNode,
    h('legend', null, t('chips')),
    chips.map((value, i) => {
      const id = `chip-${i}`;
      const input = h('input', { type: 'radio', name: 'chip', id, value, checked: i === 0 });
      input.addEventListener('change', () => {
        state.chip = value;
      });
      return h('label', { class: 'chip', for: id }, input, h('span', null, money(value)));
    }),
  );
  fill(
    limitsNode,
    h('summary', null, t('limits')),
    h('p', null, lang === 'es' ? paysTextEs(table.config) : paysText(table.config)),
    h(
      'ul',
      null,
      Object.entries(limits).map(([type, l]) =>
        h(
          'li',
          null,
          `${spotName(type)}: ${t('min', { amount: money(l.min) })}, ${t('max', { amount: money(l.max) })}`,
        ),
      ),
    ),
  );
}

buttons.place.addEventListener('click', () => void placeBets());
buttons.undo.addEventListener('click', () => slip.undo() && slipChanged());
buttons.clear.addEventListener('click', () => {
  slip.clear();
  slipChanged();
});
buttons.rebet.addEventListener('click', () => {
  if (!slip.rebet(state.lastBets)) show(message, t('nothingToRebet'));
  else slipChanged();
});
buttons.double.addEventListener('click', () => slip.double(state.placed) && slipChanged());

// ---- start ---------------------------------------------------------------------------------------------

let sessions: Sessions;

function setWords(): void {
  document.title = t('title');
  document.querySelectorAll<HTMLElement>('[data-say]').forEach((node) => {
    node.textContent = t(node.dataset.say as MessageKey);
  });
  byId('rules-text').textContent = t('rulesText');
  const other: Lang = lang === 'en' ? 'es' : 'en';
  const switcher = byId<HTMLAnchorElement>('lang');
  const url = new URL(location.href);
  url.searchParams.set('lang', other);
  switcher.href = `${url.pathname}${url.search}`;
  switcher.lang = other;
}

async function start(): Promise<void> {
  setWords();
  let opened: Sessions | undefined;
  try {
    opened = await Sessions.open(takeLaunchToken(location, history));
  } catch (error) {
    show(message, refusal(error));
    return;
  }
  if (!opened) {
    show(message, t('sessionEnded'));
    return;
  }
  sessions = opened;
  const { player } = sessions.session;
  state.playerId = player.playerId;
  const tableId = player.tableId ?? new URLSearchParams(location.search).get('table') ?? '';
  try {
    state.table = await get<Table>(`/v1/tables/${seg(tableId)}`, { key: await sessions.token() });
  } catch (error) {
    show(message, refusal(error));
    return;
  }
  state.currency = state.table.config.currency;
  byId('table-name').textContent = state.table.name;
  buildFelt(state.table);
  drawSpots();
  await Promise.all([
    loadWallet(),
    loadRoads(),
    loadHistory(),
    loadShoe(state.table.currentShoeId ?? undefined),
  ]);
  followTable({
    tableId,
    sessions,
    handlers: { table: onTable, player: onPlayer, state: onFeedState },
  });
  setInterval(drawCountdown, 250);
}

void start();
