/**
 * What a Lambda bundle's import holds (docs/architecture.md, "What a function loads"): built with the
 * options the stack deploys (infra/src/esbuild-options.ts), the files a cold start parses — index.mjs
 * and the chunks it imports statically — hold none of the dev-only adapters (compiled out by
 * LAMBDA_BUNDLE_DEFINE), the seamless wallet client only in a chunk loaded on first use, and the
 * dealing code only in the functions that deal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApi } from '@pyb/contracts/openapi';
import { buildSeamlessWalletOpenApi } from '@pyb/contracts/seamless-openapi';
import { ROUTES } from '@pyb/functions/routes';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bundleDefines,
  bundleHandlerWithMetafile,
  handlerEntry,
  initialOutputs,
  inputBytes,
  lambdaBuildOptions,
  type Metafile,
  REPO_ROOT,
} from '../src/esbuild-options';

const out = mkdtempSync(join(tmpdir(), 'pyb-bundle-contents-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * The source files with code in the bundle (esbuild lists a file whose every export was shaken off
 * with 0 bytes): those an import parses (`initial`) and all of them.
 */
function inputsOf(metafile: Metafile): { initial: Set<string>; all: Set<string> } {
  const files = (outputs?: string[]) =>
    new Set([...inputBytes(metafile, outputs)].filter(([, bytes]) => bytes > 0).map(([input]) => input));
  return {
    initial: files(initialOutputs(metafile)),
    all: files(),
  };
}

const entryOf = (name: string) =>
  name.startsWith('jobs/') ? join(REPO_ROOT, 'functions', name, 'handler.ts') : handlerEntry(name);

/** Each function bundled once for the file. */
const bundles = new Map<string, Promise<{ initial: Set<string>; all: Set<string> }>>();
function bundled(name: string) {
  let pending = bundles.get(name);
  if (!pending) {
    pending = bundleHandlerWithMetafile(entryOf(name), join(out, name.replace('/', '-'))).then(inputsOf);
    bundles.set(name, pending);
  }
  return pending;
}

/** Local stand-ins of KMS, drand, SQS, S3: a Lambda never runs them. */
const DEV_ONLY = [
  'packages/keys/src/local.ts',
  'packages/beacon/src/local.ts',
  'packages/core/src/shared/ports/in-process-queue.ts',
  'packages/feed-files/src/local.ts',
  'packages/archive/src/local.ts',
];
const WALLET_CLIENT = 'packages/seamless-wallet/src/client.ts';

describe('a Lambda bundle holds what its function runs', () => {
  it.each([
    'get-wallet',
    'place-bet',
    'resolve-round',
    'void-round',
    'open-shoe',
    'list-feed-files',
    'jobs/archive-shoe',
  ])('%s: no dev-only adapter, no wallet client at import', async (name) => {
    const { initial } = await bundled(name);
    expect(DEV_ONLY.filter((file) => initial.has(file))).toEqual([]);
    expect(initial.has(WALLET_CLIENT)).toBe(false);
  });

  it('the functions that move seamless money load the wallet client on first use, in a chunk of its own', async () => {
    for (const name of ['place-bet', 'resolve-round']) {
      const { initial, all } = await bundled(name);
      expect(all.has(WALLET_CLIENT), name).toBe(true);
      expect(initial.has(WALLET_CLIENT), name).toBe(false);
    }
  });

  it('resolve-round holds the KMS adapter (it signs every round) but not the settlement batch of the dev queue', async () => {
    const { initial } = await bundled('resolve-round');
    expect(initial.has('packages/keys/src/kms.ts')).toBe(true);
    expect(initial.has('packages/core/src/shared/shoe-decks.ts')).toBe(true);
    expect(initial.has('packages/core/src/rounds/settlement-batch.ts')).toBe(false);
    expect(initial.has('packages/core/src/rounds/void.ts')).toBe(false);
  });

  it('a function that never deals does not hold the dealing code (the shoe orders are made on first deal)', async () => {
    const { initial } = await bundled('get-wallet');
    expect(initial.has('packages/core/src/shared/shoe-decks.ts')).toBe(false);
    expect(initial.has('packages/fairness/src/shoe.ts')).toBe(false);
  });

  it('without the build-time flag the same source holds the local adapters (what the flag removes)', async () => {
    const options = lambdaBuildOptions(handlerEntry('resolve-round'), join(out, 'resolve-round-unflagged'));
    const { metafile } = await build({ ...options, define: {}, metafile: true });
    const { initial } = inputsOf(metafile);
    expect(initial.has('packages/keys/src/local.ts')).toBe(true);
    expect(initial.has('packages/core/src/shared/ports/in-process-queue.ts')).toBe(true);
  });

  it('the Meta endpoints serve the document rendered at build time: their import holds no schema module and no registry', async () => {
    const rendered = (handler: string) => {
      const define = bundleDefines(handlerEntry(handler))['process.env.PYB_SERVED_DOCUMENT'];
      return define === undefined ? undefined : JSON.parse(JSON.parse(define) as string);
    };
    expect(rendered('get-openapi')).toEqual(buildOpenApi(ROUTES));
    expect(rendered('get-seamless-openapi')).toEqual(buildSeamlessWalletOpenApi());
    expect(rendered('get-wallet')).toBeUndefined();
    for (const name of ['get-openapi', 'get-seamless-openapi']) {
      const { initial, all } = await bundled(name);
      for (const file of [
        'functions/src/documents.ts',
        'packages/contracts/src/endpoints.ts',
        'packages/contracts/src/openapi.ts',
        'packages/contracts/src/seamless-openapi.ts',
        'packages/contracts/src/tables.ts',
      ])
        expect(initial.has(file), `${name}: ${file}`).toBe(false);
      // The builders stay in a chunk the bundle never loads (the variable is always set in a bundle).
      expect(all.has('functions/src/documents.ts'), name).toBe(true);
    }
  });
});
