/**
 * Debian's Chromium driven by playwright-core (no browser download: scripts/chromium.sh, run by
 * `./scripts/test` and `.ci/run`, installs the `chromium` package when /usr/bin/chromium is missing). Flags as docs/web.md lists them: headless, no
 * sandbox (root), no GPU, and none of Chromium's own background connections (this machine has no
 * network but the registries; they would only be refused).
 */
import { existsSync } from 'node:fs';
import { type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 360, height: 780 };

export interface Browser {
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** One browser (playwright gives it a new empty profile); a context per test is cheap. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: bash scripts/chromium.sh installs Debian's (or set CHROMIUM_PATH)`,
    );
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    context: (options = {}) =>
      browser.newContext({
        viewport: DESKTOP,
        locale: 'en-GB',
        timezoneId: 'Europe/Madrid',
        reducedMotion: 'reduce',
        acceptDownloads: true,
        ...options,
      }),
    close: () => browser.close(),
  };
}
