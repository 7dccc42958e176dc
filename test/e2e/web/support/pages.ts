/** Page helpers of the browser tests: problems the page reports, screenshots at two widths. */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { DESKTOP, PHONE } from './browser';

/**
 * Screenshots go to web/test-results/screenshots (not committed); with UPDATE_SCREENSHOTS=1 they are
 * also copied over docs/images/, the ones the README shows.
 */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../../../web/test-results/screenshots');
const DOCS_IMAGES = resolve(import.meta.dirname, '../../../../docs/images');

export interface WatchedPage {
  page: Page;
  /** Uncaught errors and CSP violations: a page that works under its policy has none. */
  problems: string[];
}

export async function openPage(context: BrowserContext, url: string): Promise<WatchedPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      problems.push(`CSP: ${message.text()}`);
    }
  });
  await page.goto(url);
  return { page, problems };
}

export interface Shot {
  files: string[];
  /** document width at 360 px: more than 360 means the page scrolls sideways. */
  phoneScrollWidth: number;
  /** The innermost elements wider than 360 px (none when the page fits). */
  overflowing: string[];
}

/** Full-page screenshots at desktop width and at 360 px; the viewport is restored after. */
export async function screenshots(page: Page, name: string): Promise<Shot> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const files: string[] = [];
  const shoot = async (suffix: string) => {
    const file = join(SCREENSHOT_DIR, `${name}-${suffix}.png`);
    await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
    files.push(file);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(DOCS_IMAGES, { recursive: true });
      copyFileSync(file, join(DOCS_IMAGES, `${name}-${suffix}.png`));
    }
  };
  await page.setViewportSize(DESKTOP);
  await shoot('desktop');
  await page.setViewportSize(PHONE);
  const phoneScrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  // What sticks out at 360 px (the innermost elements), to name it in a failure.
  const overflowing = await page.evaluate(() => {
    const limit = document.documentElement.clientWidth + 0.5;
    // Inside a scrolling box (a wide table, a long road) is fine: the box scrolls, the page does not.
    const clipped = (e: Element) => {
      for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true;
      }
      return false;
    };
    const wide = Array.from(document.body.querySelectorAll('*')).filter(
      (e) =>
        !clipped(e) &&
        (e.getBoundingClientRect().right > limit ||
          // text that does not wrap sticks out of a box that fits
          (getComputedStyle(e).overflowX === 'visible' &&
            e.scrollWidth > e.clientWidth + 1 &&
            e.clientWidth > 0)),
    );
    return wide
      .filter((e) => !wide.some((other) => other !== e && e.contains(other)))
      .slice(0, 10)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ').join('.')}` : ''}`,
      );
  });
  await shoot('360');
  await page.setViewportSize(DESKTOP);
  return { files, phoneScrollWidth, overflowing };
}
