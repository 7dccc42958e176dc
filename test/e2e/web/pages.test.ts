/**
 * The three pages in a real browser (Debian's Chromium driven by playwright-core), on the local stack:
 * DynamoDB Local from the vitest global setup, the local HTTP server started here in-process with the
 * web app built into a temp folder and served beside /v1 under the site's CSP. One shoe is played
 * through the table page (a seat claimed, standing bettors, a reduction and a withdrawal, a side bet,
 * rounds settled by the settlement queue, "última mano" announced by the API), a second one closed
 * early with a reason; the first is read in the regulator viewer, exported, and verified (from its
 * public proof, as a bundle, tampered with, self-signed) on the verifier page. axe-core checks each
 * page; screenshots are written at 1280 and 360 px.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoBundle, testBeacon, testKey } from '@pyb/fairness/test-helpers';
import { LocalTimeStampAuthority } from '@pyb/timestamp';
import { buildWeb } from '@pyb/web/build';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stepsInOrder } from '../../support/order';
import { type Client, client } from '../support/http';
import { type E2eStack, startStack } from '../support/stack';
import { axeViolations, seriousOrCritical } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { openPage, screenshots } from './support/pages';

// The file's tests are the steps of one story, each using what the ones before it made (docs/testing.md, "Order and load").
stepsInOrder();

// An upper bound, not a speed claim: a whole shoe through a browser on a shared 2-core machine.
vi.setConfig({ testTimeout: 300_000 });

const PLAYERS = ['ana', 'bruno', 'carla'] as const;
const START = 100_000; // €1,000.00

let siteDir: string;
let stack: E2eStack;
let api: Client;
let browser: Browser;
let tableId: string;
let shoeId: string;
/** Filled by the table test: the rounds dealt, in order. */
const dealt: string[] = [];
/** Filled by the table test: the round of the second shoe voided (ana's last round). */
let voidedRound: string | undefined;
/** Filled by the regulator test: the exported bundle, as downloaded. */
let bundlePath: string | undefined;

beforeAll(async () => {
  siteDir = mkdtempSync(join(tmpdir(), 'pyb-web-'));
  await buildWeb(siteDir);
  // Rounds of more than 2 positions are settled by the settlement queue (SETTLING), as big rounds are.
  stack = await startStack({ siteDir, env: { INLINE_SETTLE_MAX: '2' } });
  api = client(stack.url);
  browser = await launchBrowser();
  const { admin, operator } = stack.a;
  // Six decks (the API takes 6 or 8) and a deep cut card: a shoe of a handful of coups; EZ Banca,
  // the Big side bet, and one more coup after the cut card (announced by the API when its round opens).
  const table = await api.post('/v1/tables', {
    key: admin,
    body: {
      name: 'Browser test table',
      variant: 'custom',
      config: {
        decks: 6,
        pairBets: true,
        cutCard: { minCardsBehind: 274, maxCardsBehind: 280 },
        bankerMode: 'EZ',
        afterCutCard: 'ONE_MORE_COUP',
        sideBets: { BIG: { limit: { min: 100, max: 10_000 } } },
      },
    },
  });
  expect(table.status).toBe(201);
  tableId = table.body.tableId;
  for (const player of PLAYERS) {
    const credit = await api.post(`/v1/wallets/${player}/transactions`, {
      key: operator,
      body: { type: 'CREDIT', amount: START, currency: 'EUR', reference: 'browser test' },
    });
    expect(credit.status).toBe(201);
  }
  const shoe = await api.post(`/v1/tables/${tableId}/shoes`, { key: admin });
  expect(shoe.status).toBe(201);
  shoeId = shoe.body.shoeId;
  // A player's seed, mixed into the order (the verifier lists it).
  const seed = await api.post(`/v1/shoes/${shoeId}/contributions`, {
    key: operator,
    body: { seed: 'ana: lucky 7' },
  });
  expect(seed.status).toBe(201);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (siteDir) rmSync(siteDir, { recursive: true, force: true });
  if (bundlePath) rmSync(bundlePath, { force: true });
});

async function expectAccessible(page: Page): Promise<void> {
  const violations = await axeViolations(page);
  expect(seriousOrCritical(violations)).toEqual([]);
}

async function expectScreenshots(page: Page, name: string): Promise<void> {
  const shot = await screenshots(page, name);
  expect(shot.files).toHaveLength(2);
  expect(shot.overflowing).toEqual([]);
  expect(shot.phoneScrollWidth).toBeLessThanOrEqual(360);
}

/** Polls with room for a loaded machine (expect.poll's own default is one second). */
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 100 });

const board = (page: Page, player: string) => page.locator(`.board[data-player="${player}"]`);

async function bet(page: Page, player: string, types: readonly string[]): Promise<void> {
  for (const type of types) await board(page, player).locator(`.spot[data-type="${type}"]`).click();
  await board(page, player).locator('.place').click();
}

async function signIn(page: Page, key: string): Promise<void> {
  await page.fill('#api-key', key);
  await page.fill('#players', PLAYERS.join(', '));
  await page.click('#signin button[type=submit]');
  await page.waitForSelector('#table-area:not([hidden])');
}

describe('the table page', () => {
  let context: BrowserContext;
  afterAll(() => context?.close());

  it('plays a shoe: bets with chips, refusals in words, "no va más", the coup, payouts, roads growing, última mano', async () => {
    context = await browser.context();
    const { page, problems } = await openPage(context, `${stack.url}/?table=${tableId}`);
    await signIn(page, stack.a.operator);
    // The shoe's statement is checked in the browser against the published key.
    await page.waitForSelector('[data-check="signature"][data-ok="true"]');
    await expect(page.locator('#shoe').textContent()).resolves.toContain('signature valid');
    // The key is kept in session storage, nowhere else.
    const storage = await page.evaluate(() => ({
      session: Object.keys(sessionStorage),
      local: Object.keys(localStorage),
      cookies: document.cookie,
    }));
    expect(storage).toEqual({
      session: expect.arrayContaining(['pyb.table.apiKey']),
      local: [],
      cookies: '',
    });

    // The table facts: EZ Banca and the Big side bet's pay table.
    await expect(page.locator('[data-banker-mode="EZ"]').textContent()).resolves.toContain(
      'a Banca win with a three-card 7 pushes',
    );
    await expect(page.locator('[data-side-bet="BIG"]').textContent()).resolves.toContain('Big pays 0.54:1');
    const settledBy: string[] = [];
    let announced = false;
    for (let coup = 1; coup <= 20; coup++) {
      await page.click('#open-round');
      await page.waitForSelector('.board .spot');
      // "Última mano" comes from the API when the round opens (one more coup after the cut card).
      const lastRound = await api.get(`/v1/tables/${tableId}`, { key: stack.a.operator });
      const open = await api.get(`/v1/rounds/${lastRound.body.openRoundId}`, { key: stack.a.operator });
      if (open.body.lastCoup) {
        announced = true;
        expect(await page.getAttribute('#last-coup-banner', 'data-last-coup')).toBe('this');
      }
      if (coup === 1) {
        // Punto and Banca together: refused, in words.
        await bet(page, 'bruno', ['PLAYER', 'BANKER']);
        await poll(() => page.textContent('#message')).toContain(
          'bruno: Punto and Banca cannot both be bet in the same coup.',
        );
        await board(page, 'bruno').locator('.clear').click();
        // Above the Empate maximum (€625.00): 7 chips of €100.00.
        await page.check('input[name="chip"][data-chip="4"]');
        await bet(page, 'carla', Array(7).fill('TIE'));
        await poll(() => page.textContent('#message')).toContain(
          'carla: Empate: the bet is above the table maximum of €625.00.',
        );
        await board(page, 'carla').locator('.clear').click();
        await page.check('input[name="chip"][data-chip="1"]');
        // Ana claims seat 2 with her first bet; the others stand.
        await page.selectOption('#p-ana-seat', '2');
      }
      if (coup === 1) {
        // By keyboard alone: a spot takes a chip on Enter, "Place bets" goes on Space.
        await board(page, 'ana').locator('.spot[data-type="BANKER"]').focus();
        await page.keyboard.press('Enter');
        await page.keyboard.press('Enter');
        await board(page, 'ana').locator('.place').focus();
        await page.keyboard.press('Space');
      } else {
        await bet(page, 'ana', ['BANKER', 'BANKER']);
      }
      await bet(page, 'bruno', ['PLAYER', 'PLAYER_PAIR', 'BIG']);
      await bet(page, 'carla', ['TIE']);
      for (const player of PLAYERS) {
        // The alert region rides along, so a refusal shows in the failure.
        await poll(
          async () =>
            `${await board(page, player).locator('.placed').textContent()} | ${await page.textContent('#message')}`,
        ).toContain('Placed:');
      }
      await expect(board(page, 'ana').locator('.placed').textContent()).resolves.toContain('Banca €10.00');
      if (coup === 1) {
        // Ana sits at seat 2, the others stand: on the boards, the count and the seat map.
        await expect(board(page, 'ana').locator('.seat').textContent()).resolves.toBe('seat 2');
        await expect(board(page, 'bruno').locator('.seat').textContent()).resolves.toBe('standing');
        await poll(() => page.getAttribute('#round .seats', 'data-standing')).toBe('2');
        expect(await page.getAttribute('#round .seats', 'data-seated')).toBe('1');
        await page.waitForSelector('#seat-map li[data-seat="2"][data-holder="ana"]');
        // Ana takes one chip off her Banca bet; Carla withdraws her Empate bet: the money comes back.
        const carlaBefore = (await api.get('/v1/wallets/carla', { key: stack.a.operator })).body.balance;
        await board(page, 'ana').locator('.reduce[data-type="BANKER"]').click();
        await poll(() => board(page, 'ana').locator('.placed').textContent()).toContain('Banca €5.00');
        await board(page, 'carla').locator('.withdraw[data-type="TIE"]').click();
        await poll(() => board(page, 'carla').locator('.placed').textContent()).toContain(
          'No bet placed yet.',
        );
        const carlaAfter = (await api.get('/v1/wallets/carla', { key: stack.a.operator })).body.balance;
        expect(carlaAfter - carlaBefore).toBe(500);
        await expectAccessible(page);
      }

      await page.click('#resolve');
      await page.waitForSelector(`#coup-area[data-coup="${coup}"] .coup[data-dealt="done"]`);
      settledBy.push((await page.getAttribute('#coup-area', 'data-resolved')) ?? '');
      const round = await page.evaluate(() => document.querySelector('#payouts')?.textContent ?? '');
      expect(round).toContain(`Payouts of coup ${coup}`);
      // Each card of the coup came with the rule that drew it.
      const rules = await page
        .locator('#coup-area .steps li')
        .evaluateAll((items) => items.map((li) => li.getAttribute('data-rule')));
      expect(rules.slice(0, 4)).toEqual(['INITIAL', 'INITIAL', 'INITIAL', 'INITIAL']);
      // The roads grow by one coup.
      await poll(() => page.locator('#scoreboard [data-road="bead-plate"] g.bead').count()).toBe(coup);
      const last = await page.getAttribute('#last-coup-banner', 'data-last-coup');
      const scoreboard = await api.get(`/v1/tables/${tableId}/scoreboard`, { key: stack.a.operator });
      const roundId = scoreboard.body.coups.at(-1).roundId;
      dealt.push(roundId);
      expect(scoreboard.body.panel.coups).toBe(coup);
      // Payouts are drawn from the settled round: the page's are the API's, the side bet's included.
      const settled = await api.get(`/v1/rounds/${roundId}`, { key: stack.a.operator });
      expect(settled.body.status).toBe('SETTLED');
      for (const position of settled.body.positions) {
        expect(
          await page.getAttribute(
            `#payouts tr[data-player="${position.playerId}"] [data-payout]`,
            'data-payout',
          ),
        ).toBe(String(position.payout));
      }
      const big = settled.body.positions
        .find((p: { playerId: string }) => p.playerId === 'bruno')
        .bets.find((b: { type: string }) => b.type === 'BIG');
      expect(['WIN', 'LOSE']).toContain(big.result);
      await expect(page.locator('#payouts tr[data-player="bruno"]').textContent()).resolves.toContain(
        `Big €5.00 ${big.result === 'WIN' ? 'won' : 'lost'}`,
      );
      expect(await page.getAttribute('#coup-area .side-bets', 'data-side-bets')).toBe(`BIG:${big.result}`);
      if (last === 'done') break;
      expect(coup).toBeLessThan(20);
    }
    // Three positions, more than INLINE_SETTLE_MAX: each round was SETTLING, and drawn once SETTLED.
    expect(settledBy.every((s) => s === 'SETTLING')).toBe(true);
    expect(announced).toBe(true);
    expect(dealt.length).toBeGreaterThanOrEqual(2);
    await expect(page.locator('#last-coup-banner').textContent()).resolves.toContain('Última mano');
    expect(await page.isDisabled('#open-round')).toBe(true);
    // Balances on the page are the wallets' balances.
    for (const player of PLAYERS) {
      const wallet = await api.get(`/v1/wallets/${player}`, { key: stack.a.operator });
      const shown = await page.locator(`#payouts tr[data-player="${player}"] .balance-after`).textContent();
      expect(shown).toBe(
        new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(
          wallet.body.balance / 100,
        ),
      );
    }
    await expectAccessible(page);
    await expectScreenshots(page, 'table');

    // Closing needs an admin key: the operator key is not offered the button, and is told which key it needs.
    expect(await page.locator('#whoami').textContent()).toMatch(/^Signed in with the operator key …/);
    expect(await page.locator('#close-shoe').isDisabled()).toBe(true);
    expect(await page.locator('#shoe-needs-key').textContent()).toMatch(
      /^Opening and closing shoes needs the ADMIN key/,
    );
    await page.click('#signout');
    await signIn(page, stack.a.admin);
    expect(await page.locator('#shoe-needs-key').count()).toBe(0);
    await page.click('#close-shoe');
    await page.waitForSelector(`#shoe a[href="/verify?shoe=${shoeId}"]`);
    const closed = await api.get(`/v1/shoes/${shoeId}`, { key: stack.a.operator });
    expect(closed.body.status).toBe('CLOSED');

    // A second shoe closed before its cut card: it needs a reason, said in words, then recorded.
    await page.click('#open-shoe');
    await page.waitForSelector('#close-reason');
    const second = (await api.get(`/v1/tables/${tableId}`, { key: stack.a.operator })).body.currentShoeId;

    // A round voided for an irregularity: without a reason refused in words; with one, every stake refunded.
    const anaBefore = (await api.get('/v1/wallets/ana', { key: stack.a.operator })).body.balance;
    await page.click('#open-round');
    await page.waitForSelector('.board .spot');
    await bet(page, 'ana', ['BANKER']);
    await poll(() => board(page, 'ana').locator('.placed').textContent()).toContain('Banca €5.00');
    await page.click('#round .void-round summary');
    await expectAccessible(page);
    await page.click('#void-round');
    await poll(() => page.textContent('#message')).toContain('Voiding the round: Some input is not valid.');
    await page.selectOption('#void-reason', 'MISDEAL');
    await page.fill('#void-note', 'cards dealt out of order');
    await page.click('#void-round');
    await page.waitForSelector('#coup-area[data-voided="VOIDED"]');
    const voidedId = await page.getAttribute('#coup-area .voided', 'data-round');
    voidedRound = voidedId ?? undefined;
    const voided = (await api.get(`/v1/rounds/${voidedId}`, { key: stack.a.operator })).body;
    expect([voided.status, voided.voidReason]).toEqual(['VOIDED', 'MISDEAL']);
    await expect(page.locator('#coup-area .voided').textContent()).resolves.toContain(
      'voided (a misdeal): 1 position, €5.00 refunded.',
    );
    expect((await api.get('/v1/wallets/ana', { key: stack.a.operator })).body.balance).toBe(anaBefore);

    await page.click('#close-shoe');
    await poll(() => page.textContent('#message')).toContain('closing this shoe early needs a reason');
    await page.selectOption('#close-reason', 'END_OF_SESSION');
    await page.click('#close-shoe');
    await page.waitForSelector(`#shoe a[href="/verify?shoe=${second}"]`);
    const early = await api.get(`/v1/shoes/${second}`, { key: stack.a.operator });
    expect([early.body.status, early.body.closeReason]).toEqual(['CLOSED', 'END_OF_SESSION']);

    // "Leave table" is offered to a player at the table only: Ana (seat 2), not Bruno, who stood and owes nothing (EZ).
    expect(await page.locator('button[data-leave="bruno"]').count()).toBe(0);
    // Ana leaves the table: the commission she owes is collected, her seat 2 freed, said in words.
    const owed = (await api.get('/v1/wallets/ana', { key: stack.a.operator })).body;
    await page.click('button[data-leave="ana"]');
    await page.waitForSelector('.wallets li[data-player="ana"] .left');
    const after = (await api.get('/v1/wallets/ana', { key: stack.a.operator })).body;
    const euros = (minor: number) =>
      new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(minor / 100);
    expect(after.balance).toBe(owed.balance - owed.commissionOwed);
    await expect(page.locator('.wallets li[data-player="ana"] .left').textContent()).resolves.toContain(
      `ana left: commission collected ${euros(owed.commissionOwed)}, balance ${euros(after.balance)}, seat 2 freed.`,
    );
    const seats = (await api.get(`/v1/tables/${tableId}/seats`, { key: stack.a.operator })).body.seats;
    expect(seats.find((x: { seat: number }) => x.seat === 2).playerId).toBeNull();
    expect(problems).toEqual([]);
  });
});

describe('the regulator viewer', () => {
  let context: BrowserContext;
  afterAll(() => context?.close());

  it('replays a round, pages a player’s recall back, and downloads the audit bundle', async () => {
    expect(dealt.length).toBeGreaterThanOrEqual(2);
    context = await browser.context();
    const { page, problems } = await openPage(context, `${stack.url}/regulator`);
    await page.fill('#api-key', stack.a.regulator);
    await page.click('#signin button[type=submit]');
    await page.waitForSelector('#tools:not([hidden])');

    // Replay: every step, every position with balances, the verification block (the shoe is closed).
    await page.fill('#round-id', dealt[0]!);
    await page.click('#replay-form button[type=submit]');
    const replay = page.locator(`#replay article.replay[data-round="${dealt[0]}"]`);
    await replay.waitFor();
    expect(await replay.getAttribute('data-status')).toBe('VERIFIED');
    const expected = await api.get(`/v1/rounds/${dealt[0]}/replay`, { key: stack.a.regulator });
    // Each instant in UTC as the API has it, and in the reader's time zone beside it (Madrid: CET).
    const opened = replay.locator(`time[datetime="${expected.body.openedAt}"]`).first();
    expect(await opened.textContent()).toMatch(
      new RegExp(`^${expected.body.openedAt.replaceAll('.', '\\.')} \\(.+ (CET|CEST|GMT\\+[12])\\)$`),
    );
    const stepRows = await replay.locator('table:has(caption:text("Every step")) tbody tr').count();
    expect(stepRows).toBe(expected.body.coup.steps.length);
    const checks = await replay
      .locator('.verification li[data-check]')
      .evaluateAll((items) =>
        items.map((li) => [li.getAttribute('data-check'), li.getAttribute('data-status')]),
      );
    expect(checks).toHaveLength(8);
    expect(checks.every(([, status]) => status === 'PASSED' || status === 'NOT_APPLICABLE')).toBe(true);
    for (const position of expected.body.positions) {
      expect(
        await replay.locator(`[data-balance-before="${position.balance.before}"]`).count(),
      ).toBeGreaterThan(0);
      expect(
        await replay.locator(`[data-balance-after="${position.balance.after}"]`).count(),
      ).toBeGreaterThan(0);
    }
    await expectAccessible(page);
    await expectScreenshots(page, 'regulator');

    // Game recall, one round a page, paged back.
    await page.fill('#player-id', 'ana');
    await page.fill('#page-size', '1');
    await page.click('#recall-form button[type=submit]');
    await page.waitForSelector('.recall-list[data-rounds="1"]');
    await page.click('#recall-older');
    await page.waitForSelector('.recall-list[data-rounds="2"]');
    const listed = await page
      .locator('.recall-list details')
      .evaluateAll((items) => items.map((d) => d.getAttribute('data-round')));
    // Play order, oldest first: the last two rounds ana played (the last one voided on the second shoe).
    const played = [...dealt, ...(voidedRound ? [voidedRound] : [])];
    expect(listed).toEqual(played.slice(-2));
    await page.locator('.recall-list details summary').first().click();
    await page.waitForSelector(`.recall-list article.replay[data-round="${played.at(-2)}"]`);

    // Audit export: downloaded as the bundle `baccarat verify` takes.
    await page.fill('#export-shoe-id', shoeId);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#export-form button[type=submit]'),
    ]);
    expect(download.suggestedFilename()).toBe(`${shoeId}.bundle.json`);
    bundlePath = join(tmpdir(), `pyb-${shoeId}.bundle.json`);
    await download.saveAs(bundlePath);
    const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
    expect(bundle.format).toBe('pyb-shoe-bundle/2');
    expect(bundle.rounds).toHaveLength(dealt.length);

    // Handed to the verifier page in the same tab.
    await page.click('#verify-here');
    await page.waitForSelector('#verdict[data-verdict]');
    expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('verified');
    expect(problems).toEqual([]);
  });
});

describe('the verifier page', () => {
  let context: BrowserContext;
  afterAll(() => context?.close());

  const verdictOf = async (page: Page) => {
    await page.waitForSelector('#verdict[data-verdict]');
    return page.getAttribute('#verdict', 'data-verdict');
  };

  it('verifies the public proof by id, a dropped bundle, a tampered one, another key, a self-signed one, and seeds', async () => {
    expect(bundlePath).toBeDefined();
    context = await browser.context();
    const { page, problems } = await openPage(context, `${stack.url}/verify?shoe=${shoeId}`);
    // The public proof of the closed shoe, fetched by id (no key) and verified under the key and the
    // beacon network this site publishes; the beacon round, the player's seed and the signed heads listed.
    await page.waitForSelector('#proof-status[data-proof="fetched"]');
    expect(await verdictOf(page)).toBe('verified');
    const proof = (await api.get(`/v1/shoes/${shoeId}/proof`)).body;
    expect(await page.getAttribute('[data-evidence="contributions"]', 'data-players')).toBe('1');
    await expect(page.locator('table.contributions').textContent()).resolves.toContain('ana: lucky 7');
    expect(await page.getAttribute('[data-evidence-check="beacon.signature"]', 'title')).toContain(
      `round ${proof.beacon.round}`,
    );
    expect(await page.getAttribute('table.heads', 'data-heads')).toBe(String(proof.heads.length));
    expect(await page.locator('table.heads tbody tr').count()).toBe(proof.heads.length);
    expect(proof.heads.length).toBeGreaterThan(dealt.length);
    // Each listed head carries the library's check of it, passed.
    const headChecks = await page
      .locator('table.heads [data-evidence-check]')
      .evaluateAll((items) => items.map((e) => e.textContent));
    expect(headChecks).toEqual(Array(proof.heads.length).fill('PASS'));
    expect(await page.locator('[data-check][data-ok="false"]').count()).toBe(0);

    // The bundle as the regulator downloaded it: every check passes, under the key the API publishes.
    const original = readFileSync(bundlePath!, 'utf8');
    await page.setInputFiles('#bundle-file', bundlePath!);
    expect(await verdictOf(page)).toBe('verified');
    expect(await page.locator('[data-check][data-ok="false"]').count()).toBe(0);
    expect(await page.locator('[data-check][data-ok="true"]').count()).toBeGreaterThan(20);
    expect(await page.locator('.coup-shown .card').count()).toBeGreaterThanOrEqual(4);
    await page.selectOption('#coup-pick', '1');
    await expect(page.locator('.coup-shown h3').textContent()).resolves.toContain('Coup 2');
    // pyb-shoe/3: the coups played, each drawn again from the seed and its round — the API's, card for card.
    expect(proof.statement.scheme).toBe('pyb-shoe/3');
    type ProofCoup = { player: { cards: string[] }; banker: { cards: string[] } };
    const coups = (proof.rounds as { coup: ProofCoup | null }[]).flatMap((r) => (r.coup ? [r.coup] : []));
    await expect(page.locator('#coup-pick option').count()).resolves.toBe(coups.length);
    for (const [i, coup] of coups.entries()) {
      await page.selectOption('#coup-pick', String(i));
      const cards = await page
        .locator('.coup-shown .hand .card')
        .evaluateAll((items) => items.map((c) => c.getAttribute('data-card')));
      expect(cards.sort()).toEqual([...coup.player.cards, ...coup.banker.cards].sort());
    }
    await expectAccessible(page);
    await expectScreenshots(page, 'verify');

    // Tampered: one payout raised by one cent.
    const tampered = JSON.parse(original);
    tampered.rounds[0].positions[0].settlement.payout += 1;
    await page.setInputFiles('#bundle-file', {
      name: 'tampered.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(tampered)),
    });
    expect(await verdictOf(page)).toBe('failed');
    const failed = await page
      .locator('[data-check][data-ok="false"]')
      .evaluateAll((items) => items.map((li) => li.getAttribute('data-check')));
    expect(failed).toContain(`round.1.player.${tampered.rounds[0].positions[0].playerId}.payout`);

    // Consistent, but checked against another key than the one that signed it.
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    await page.click('#key-box summary');
    await page.fill('#trusted-key', String(other));
    await page.setInputFiles('#bundle-file', {
      name: 'bundle.json',
      mimeType: 'application/json',
      buffer: Buffer.from(original),
    });
    // The library refuses a shoe the key the reader trusts did not sign (keys.trusted).
    expect(await verdictOf(page)).toBe('failed');
    await expect(page.locator('#trust').textContent()).resolves.toContain('not a key you trust');
    await expect(page.locator('[data-check="keys.trusted"]').getAttribute('data-ok')).resolves.toBe('false');
    await page.fill('#trusted-key', '');

    // The reader pins a TSA of his own: with a stranger's certificate no head naming a beacon round
    // counts as stamped (failed, naming the head's stamp check); with the stack's TSA, verified again.
    const stranger = await LocalTimeStampAuthority.create({
      name: 'stranger TSA',
      clock: { now: () => new Date() },
    });
    await page.fill('#trusted-tsa', stranger.certificatePem());
    await page.setInputFiles('#bundle-file', {
      name: 'bundle.json',
      mimeType: 'application/json',
      buffer: Buffer.from(original),
    });
    expect(await verdictOf(page)).toBe('failed');
    const unstamped = await page
      .locator('[data-check][data-ok="false"]')
      .evaluateAll((items) => items.map((li) => li.getAttribute('data-check')));
    expect(unstamped.length).toBeGreaterThan(0);
    expect(unstamped.every((id) => /\.timestamp$/.test(id ?? ''))).toBe(true);
    await page.fill('#trusted-tsa', stack.tsaPem);
    await page.setInputFiles('#bundle-file', {
      name: 'bundle.json',
      mimeType: 'application/json',
      buffer: Buffer.from(original),
    });
    expect(await verdictOf(page)).toBe('verified');
    await page.fill('#trusted-tsa', '');

    // Self-signed: a consistent shoe signed by a key nobody published here, on a beacon nobody vouched for.
    const selfSigned = await demoBundle({
      keys: [testKey('key-self', '2024-06-01T00:00:00.000Z')],
      beacon: await testBeacon(),
      rounds: 3,
    });
    await page.setInputFiles('#bundle-file', {
      name: 'self-signed.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(selfSigned)),
    });
    expect(await verdictOf(page)).toBe('untrusted');
    expect(await page.locator('[data-check][data-ok="false"]').count()).toBe(0);
    expect(await page.locator('[data-check="keys.trusted"][data-untrusted="true"]').count()).toBe(1);
    await expect(page.locator('#trust').textContent()).resolves.toContain('No key given to trust');

    // Seeds by hand (the box is pyb-shoe/2's: its seeds fix a whole order): recomputed, consistent with
    // the commitment, but unsigned: untrusted; a wrong commitment fails.
    const bundle = JSON.parse(original);
    await page.click('#seeds-box summary');
    await page.fill('#server-seed', bundle.serverSeed);
    // pyb-shoe/2's inputs as the proof reveals them: the page computes the shoe entropy from them.
    await page.fill(
      '#contributions',
      proof.contributions.map((c: { kind: string; seed: string }) => `${c.kind} ${c.seed}`).join('\n'),
    );
    await page.fill('#beacon-chain', proof.statement.beacon.chainHash);
    await page.fill('#beacon-round', String(proof.beacon.round));
    await page.fill('#beacon-signature', proof.beacon.signature);
    await page.fill('#seed-shoe-id', bundle.statement.shoeId);
    await page.fill('#commitment', bundle.statement.commitment);
    await page.fill('#decks', String(bundle.statement.decks));
    await page.fill('#min-behind', String(bundle.statement.cutCard.minCardsBehind));
    await page.fill('#max-behind', String(bundle.statement.cutCard.maxCardsBehind));
    await page.selectOption('#after-cut', bundle.statement.table.afterCutCard);
    await page.click('#seeds button[type=submit]');
    expect(await verdictOf(page)).toBe('untrusted');
    await expect(page.locator('[data-check="seed.entropy"]').getAttribute('data-ok')).resolves.toBe('true');
    await page.fill('#commitment', '0'.repeat(64));
    await page.click('#seeds button[type=submit]');
    expect(await verdictOf(page)).toBe('failed');
    expect(problems).toEqual([]);
  });
});
