/**
 * Builds the site with Vite (web/vite.config.ts) into `outDir` (default web/dist). Used by
 * `./scripts/dev` and the browser tests; the CDK app runs the same build through the Vite CLI.
 */
import { join } from 'node:path';

export const WEB_ROOT = import.meta.dirname;
export const WEB_DIST = join(WEB_ROOT, 'dist');

export async function buildWeb(outDir: string = WEB_DIST): Promise<string> {
  const { build } = await import('vite');
  // Vite sets NODE_ENV=production in this process for its build; the dev stack's handlers read the
  // same environment, and their local key services refuse to run under NODE_ENV=production.
  const nodeEnv = process.env.NODE_ENV;
  try {
    await build({
      configFile: join(WEB_ROOT, 'vite.config.ts'),
      build: { outDir, emptyOutDir: true },
      logLevel: 'warn',
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}
