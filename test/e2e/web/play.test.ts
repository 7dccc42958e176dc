/**
 * The game client (/play) in a real browser (Debian's Chromium driven by playwright-core), on the local
 * stack with its live broker behind the server's own /live and a cadence table run by the local Step
 * Functions runner. Two players open launch URLs (no API key in any page) and play the same rounds:
 * they see the same cards in the same order as the API recorded them; one whose connection dropped
 * has his bet refused after "no va más", in words, and catches up by seq once back; rebet, Spanish,
 * a reload mid-round and the keyboard alone work; axe-core finds nothing; screenshots at 1280 and 360 px.
 *
 * Time: the stack's clock skips its waits, and the test holds the dealer — "no va más" and the next
 * round wait for the test's word (the runner's `hold`) — so nothing here depends on how fast the
 * machine is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalCadenceRunner } from '@pyb/cadence/local';
import { buildWeb } from '@pyb/web/build';
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stepsInOrder } from '../../support/order';
import { type Client, client } from '../support/http';
import { type E2eStack, startStack } from '../support/stack';
import { axeViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { openPage, screenshots, type WatchedPage } from './support/pages';

stepsInOrder();
// An upper bound, not a speed claim: two browsers and a cadence table on a shared 2-core machine.
vi.setConfig({ testTimeout: 240_000 });

/** The test's hand on the dealer: a held step waits until the test lets one through. */
class Dealer {
  private readonly waiting = new Map<string, (() => void)[]>();
  private readonly held = new Set(['close', 'next']);
  private free = false;

  readonly hold = async (step: string): Promise<void> => {
    if (this.free || !this.held.has(step)) return;
    await new Promise<void>((resolve) => {
      this.waiting.set(step, [...(this.waiting.get(step) ?? []), resolve]);
    });
  };

  /** Lets the step through once (now if it waits, else when it comes). */
  async release(step: 'close' | 'next'): Promise<void> {
    await poll(() => (this.waiting.get(step) ?? []).length).toBeGreaterThan(0);
    this.waiting.get(step)!.shift()!();
  }

  /** Nothing held any more (the end of the story: the table stops by itself). */
  letGo(): void {
    this.free = true;
    for (const list of this.waiting.values()) for (const resolve of list.splice(0)) resolve();
  }
}

const dealer = new Dealer();
let siteDir: string;
let stack: E2eStack;
let api: Client;
let browser: Browser;
let tableId: string;
const START = 100_000; // €1,000.00

/** Polls with room for a loaded machine. */
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 100 });

beforeAll(async () => {
  siteDir = mkdtempSync(join(tmpdir(), 'pyb-play-'));
  await buildWeb(siteDir);
  stack = await startStack({ siteDir, live: { hold: dealer.hold } });
  api = client(stack.url);
  browser = await launchBrowser();
  const { admin, operator } = stack.a;
  const table = await api.post('/v1/tables', {
    key: admin,
    body: { name: 'Mesa de prueba', variant: 'mini', config: { pairBets: true } },
  });
  expect(table.status).toBe(201);
  tableId = table.body.tableId;
  for (const player of ['ana', 'bruno']) {
    const credit = await api.post(`/v1/wallets/${player}/transactions`, {
      key: operator,
      body: { type: 'CREDIT', amount: START, currency: 'EUR', reference: 'play test' },
    });
    expect(credit.status).toBe(201);
  }
  expect((await api.post(`/v1/tables/${tableId}/shoes`, { key: admin })).status).toBe(201);
}, 180_000);

afterAll(async () => {
  dealer.letGo();
  if (tableId)
    await api?.post(`/v1/tables/${tableId}/cadence`, { key: stack.a.admin, body: { action: 'pause' } });
  await (stack?.context.cadenceRunner as LocalCadenceRunner | undefined)?.idle();
  await browser?.close();
  await stack?.stop();
  if (siteDir) rmSync(siteDir, { recursive: true, force: true });
});

/** A launch URL for the player, as the operator's server asks for it (its key never leaves the server). */
async function launchUrl(playerId: string): Promise<string> {
  const launch = await api.post(`/v1/players/${playerId}/launch`, {
    key: stack.a.operator,
    body: { tableId },
  });
  expect(launch.status, JSON.stringify(launch.body)).toBe(201);
  return `${stack.url}${launch.body.launchUrl}`;
}

const phase = (page: Page) => page.locator('#phase').getAttribute('data-phase');
const cards = (page: Page, side: 'player' | 'banker') =>
  page.locator(`#${side}-cards .card`).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-card')));
/** The page's "cards in the order dealt": side and card, as the CARD_DEALT events came. */
const dealOrder = (page: Page) =>
  page
    .locator('#deal-order li')
    .evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute('data-to')}:${n.getAttribute('data-card')}`));
const round = async (roundId: string) =>
  (await api.get(`/v1/rounds/${roundId}`, { key: stack.a.operator })).body;
const openRoundId = async (): Promise<string | null> =>
  (await api.get(`/v1/tables/${tableId}`, { key: stack.a.operator })).body.openRoundId;
const balanceOf = async (playerId: string): Promise<number> =>
  (await api.get(`/v1/wallets/${playerId}`, { key: stack.a.operator })).body.balance;

describe('the game client', () => {
  let ana: WatchedPage;
  let bruno: WatchedPage;
  let anaContext: BrowserContext;
  let brunoContext: BrowserContext;
  /** Bruno's WebSockets to /live, and whether his network is down. */
  const brunoSockets: WebSocketRoute[] = [];
  let brunoOffline = false;
  let firstRound: string;
  afterAll(async () => {
    await anaContext?.close();
    await brunoContext?.close();
  });

  it('two players on a cadence table bet, see the same cards in the same order, and one who dropped is refused after "no va más" and catches up', async () => {
    anaContext = await browser.context();
    brunoContext = await browser.context();
    // Bruno's connection to the broker goes through the test, which can cut it.
    await brunoContext.routeWebSocket(/\/live$/, (ws) => {
      if (brunoOffline) return ws.close();
      ws.connectToServer();
      brunoSockets.push(ws);
    });
    ana = await openPage(anaContext, await launchUrl('ana'));
    bruno = await openPage(brunoContext, await launchUrl('bruno'));
    // The launch token is spent and gone from the address bar.
    expect(ana.page.url()).toBe(`${stack.url}/play`);
    for (const { page } of [ana, bruno])
      await poll(() => page.locator('#table-name').textContent()).toBe('Mesa de prueba');

    const started = await api.post(`/v1/tables/${tableId}/cadence`, {
      key: stack.a.admin,
      body: { action: 'start', cadence: { bettingSeconds: 15, pauseSeconds: 0 } },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    for (const { page } of [ana, bruno]) {
      await poll(() => phase(page)).toBe('OPEN');
      await poll(() => page.locator('#connection').getAttribute('data-state')).toBe('live');
    }
    firstRound = (await openRoundId())!;
    expect(await ana.page.locator('#countdown').textContent()).toMatch(/^\d+ s to no va más$/);

    // Ana: the smallest chip (€1, the Empate minimum) on Banca is refused with the limit in money.
    await ana.page.locator('.spot[data-type="BANKER"]').click();
    await ana.page.locator('#place').click();
    await poll(() => ana.page.locator('#message').textContent()).toBe(
      'Banca: the bet is below the table minimum of €5.00.',
    );
    // Clear, then two €5 chips on Banca, one on Empate taken back by Undo.
    await ana.page.locator('#clear').click();
    await ana.page.locator('#chips label').nth(1).click();
    await ana.page.locator('.spot[data-type="BANKER"]').click();
    await ana.page.locator('.spot[data-type="BANKER"]').click();
    await ana.page.locator('.spot[data-type="TIE"]').click();
    await ana.page.locator('#undo').click();
    await poll(() => ana.page.locator('#slip').textContent()).toBe('To place: €10.00');
    await ana.page.locator('#place').click();
    await poll(() => ana.page.locator('#message').textContent()).toBe('Bets accepted: €10.00 on the table.');
    await poll(() => ana.page.locator('#balance').textContent()).toBe('€990.00');
    // Bruno: €5 on Punto.
    await bruno.page.locator('#chips label').nth(1).click();
    await bruno.page.locator('.spot[data-type="PLAYER"]').click();
    await bruno.page.locator('#place').click();
    await poll(() => bruno.page.locator('#message').textContent()).toBe('Bets accepted: €5.00 on the table.');

    // Bruno's network drops; he puts a chip on Empate, not knowing betting is about to close.
    brunoOffline = true;
    for (const ws of brunoSockets.splice(0)) await ws.close();
    await poll(() => bruno.page.locator('#connection').getAttribute('data-state')).toBe('reconnecting');
    await bruno.page.locator('.spot[data-type="TIE"]').click();

    // No va más, the deal and the settlement; the next round waits for the test.
    await dealer.release('close');
    await poll(async () => (await round(firstRound)).status).toBe('SETTLED');
    const coup = (await round(firstRound)).result;

    // Bruno's Empate reaches the API after the close: refused, and said so in words.
    await bruno.page.locator('#place').click();
    await poll(() => bruno.page.locator('#message').getAttribute('data-code')).toBe('ROUND_NOT_OPEN');
    expect(await bruno.page.locator('#message').textContent()).toBe(
      '“No va más”: betting is closed for this round.',
    );

    // Ana saw the cards as the API dealt them, one by one, in the rules' order.
    await poll(() => ana.page.locator('#outcome').getAttribute('data-winner')).toBe(coup.winner);
    expect(await cards(ana.page, 'player')).toEqual(coup.player.cards);
    expect(await cards(ana.page, 'banker')).toEqual(coup.banker.cards);
    const dealtSteps = coup.steps.filter((s: { card: string | null }) => s.card !== null);
    expect(await dealOrder(ana.page)).toEqual(
      dealtSteps.map((s: { to: string; card: string }) => `${s.to}:${s.card}`),
    );
    // What she won, net of commission, and her balance as the wallet has it.
    await poll(async () => ana.page.locator('#balance').textContent()).toBe(euros(await balanceOf('ana')));
    await poll(() => ana.page.locator('#my-result').textContent()).toMatch(
      /^You (won|lost) €|^Your stake came back/,
    );
    await poll(() => ana.page.locator('#history li').count()).toBe(1);
    expect(await ana.page.locator('#history a').getAttribute('href')).toMatch(/^\/verify\?shoe=/);
    await poll(() => ana.page.locator('#roads .panel').getAttribute('data-coups')).toBe('1');
    // The shoe's commitment (published before any bet) and the beacon round "no va más" named.
    const shoe = (await api.get(`/v1/shoes/${(await round(firstRound)).shoeId}`, { key: stack.a.operator }))
      .body;
    expect(await ana.page.locator('#fair code').getAttribute('title')).toBe(shoe.commitment);
    expect(await ana.page.locator('#fair').textContent()).toMatch(/Beacon round \d+/);
    await expectScreenshots(ana.page, 'play-result');

    // Bruno comes back: the same coup, caught up from the feed by seq, with no reload.
    brunoOffline = false;
    await poll(() => bruno.page.locator('#connection').getAttribute('data-state')).toBe('live');
    await poll(() => bruno.page.locator('#outcome').getAttribute('data-winner')).toBe(coup.winner);
    expect(await cards(bruno.page, 'player')).toEqual(coup.player.cards);
    expect(await cards(bruno.page, 'banker')).toEqual(coup.banker.cards);
    expect(await dealOrder(bruno.page)).toEqual(await dealOrder(ana.page));
    await poll(async () => bruno.page.locator('#balance').textContent()).toBe(
      euros(await balanceOf('bruno')),
    );
    await poll(() => bruno.page.locator('#roads .panel').getAttribute('data-coups')).toBe('1');
    expect(await balanceOf('bruno')).toBe(
      START - 500 + (coup.winner === 'PLAYER' ? 1_000 : coup.winner === 'TIE' ? 500 : 0),
    );
  });

  it('the next round: rebet, a reload mid-round keeps the bets, Spanish, the keyboard alone, and axe finds nothing', async () => {
    await dealer.release('next');
    for (const { page } of [ana, bruno])
      await poll(() => page.locator('#phase').textContent()).toMatch(/^Coup 2 · /);
    expect(await cards(ana.page, 'player')).toEqual([]);

    // Rebet puts back last round's €10.00 on Banca.
    await ana.page.locator('#rebet').click();
    await poll(() => ana.page.locator('.spot[data-type="BANKER"] .spot-amount').textContent()).toBe(
      '+€10.00',
    );
    await ana.page.locator('#place').click();
    await poll(() => ana.page.locator('#message').textContent()).toBe('Bets accepted: €10.00 on the table.');

    // The same tab reloaded in Spanish: the session goes on, her bet of the round in play is there.
    await ana.page.goto(`${stack.url}/play?lang=es`);
    await poll(() => ana.page.locator('#place').textContent()).toBe('Apostar');
    await poll(() => ana.page.locator('.spot[data-type="BANKER"] .spot-amount').textContent()).toBe(
      '10,00\u00a0€', // Intl's Spanish: a no-break space before the sign
    );
    await poll(() => ana.page.locator('#phase').textContent()).toMatch(/^Mano 2 · Hagan sus apuestas/);
    expect(await ana.page.locator('.spot[data-type="PLAYER_PAIR"] .spot-name').textContent()).toBe(
      'Pareja de Punto',
    );
    expect(await ana.page.locator('html').getAttribute('lang')).toBe('es');
    await poll(() => ana.page.locator('#roads .counts').textContent()).toMatch(
      /^1 mano: Punto \d, Banca \d, Empate \d; naturales/,
    );
    expect(await ana.page.locator('#limits p').textContent()).toMatch(
      /^Banca 1:1 menos 5 % de comisión .*; Punto 1:1; Empate 8:1; parejas 11:1$/,
    );

    // Bruno with the keyboard alone: a chip by arrow key, Punto by Enter, "Place bets" by Space.
    await bruno.page.locator('#chips input').first().focus();
    await bruno.page.keyboard.press('ArrowRight');
    await bruno.page.locator('.spot[data-type="PLAYER"]').focus();
    await bruno.page.keyboard.press('Enter');
    await bruno.page.locator('#place').focus();
    await bruno.page.keyboard.press('Space');
    await poll(() => bruno.page.locator('#message').textContent()).toBe('Bets accepted: €5.00 on the table.');

    expect(await axeViolations(ana.page)).toEqual([]);
    expect(await axeViolations(bruno.page)).toEqual([]);
    await expectScreenshots(bruno.page, 'play-betting');
    expect([...ana.problems, ...bruno.problems]).toEqual([]);

    // The round finishes with the cadence paused: no third round opens.
    const paused = await api.post(`/v1/tables/${tableId}/cadence`, {
      key: stack.a.admin,
      body: { action: 'pause' },
    });
    expect(paused.status).toBe(200);
    const second = (await openRoundId())!;
    await dealer.release('close');
    await poll(async () => (await round(second)).status).toBe('SETTLED');
    for (const { page } of [ana, bruno]) await poll(() => phase(page)).toBe('SETTLED');
  });

  it('a bet the casino switches off is told and its spot takes nothing from the next round; the table switched off is told', async () => {
    const avail = { reason: 'revisión de la tabla de pagos', person: 'Ana Ruiz' };
    const off = await api.post(`/v1/tables/${tableId}/availability`, {
      key: stack.a.operator,
      body: { available: false, betType: 'PLAYER_PAIR', ...avail },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await poll(() => ana.page.locator('#message').textContent()).toBe(
      'Pareja de Punto no se ofrece a partir de la próxima mano.',
    );
    await poll(() => bruno.page.locator('#message').textContent()).toBe(
      'Punto pair is not offered from the next round on.',
    );

    // The next round opens with it off: its spot is disabled, the others take bets.
    const resumed = await api.post(`/v1/tables/${tableId}/cadence`, {
      key: stack.a.admin,
      body: { action: 'resume' },
    });
    expect(resumed.status).toBe(200);
    for (const { page } of [ana, bruno]) {
      await poll(() => phase(page)).toBe('OPEN');
      const pair = page.locator('.spot[data-type="PLAYER_PAIR"]');
      await poll(() => pair.getAttribute('data-off')).toBe('');
      expect(await pair.isDisabled()).toBe(true);
      expect(await page.locator('.spot[data-type="BANKER"]').isDisabled()).toBe(false);
    }
    const third = (await openRoundId())!;
    expect((await round(third)).betsOff).toEqual(['PLAYER_PAIR']);

    // The table switched off: "no va más" there and then, the players told why; the round finishes.
    const closed = await api.post(`/v1/tables/${tableId}/availability`, {
      key: stack.a.operator,
      body: { available: false, reason: 'mantenimiento del estudio', person: 'Ana Ruiz' },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.disabled).toMatchObject({ reason: 'mantenimiento del estudio', person: 'Ana Ruiz' });
    for (const { page } of [ana, bruno]) await poll(() => phase(page)).not.toBe('OPEN');
    await poll(() => ana.page.locator('#message').textContent()).toBe(
      'El casino ha cerrado esta mesa por ahora: mantenimiento del estudio',
    );
    await dealer.release('close');
    await poll(async () => (await round(third)).status).toBe('SETTLED');
    for (const { page } of [ana, bruno]) await poll(() => phase(page)).toBe('SETTLED');
    expect([...ana.problems, ...bruno.problems]).toEqual([]);
  });
});

const euros = (minor: number) => `€${(minor / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;

async function expectScreenshots(page: Page, name: string): Promise<void> {
  const shot = await screenshots(page, name);
  expect(shot.files).toHaveLength(2);
  expect(shot.overflowing).toEqual([]);
  expect(shot.phoneScrollWidth).toBeLessThanOrEqual(360);
}
