/**
 * The stage's time-stamp authorities (infra/src/time-stamps.ts): the functions that anchor heads (and
 * the one that publishes the pins) get TSA_URLS and TSA_CERTS, with each certificate bundled beside
 * their code at the path TSA_CERTS names; no other function does. Synthesised with a few routes only
 * (stack.test.ts synthesises every function, without TSAs).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '@pyb/functions/routes';
import { WORKERS } from '@pyb/functions/workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { REPO_ROOT } from '../src/bundling';
import { parseTimeStampAuthorities, TIME_STAMP_USERS } from '../src/time-stamps';
import { appTemplate } from './app-template';

// biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON
type Cfn = Record<string, any>;

const PEM = (name: string) =>
  `-----BEGIN CERTIFICATE-----\n${Buffer.from(`the certificate of ${name}`).toString('base64')}\n-----END CERTIFICATE-----\n`;

let dir: string;
let outdir: string;
let resources: Record<string, Cfn>;
const SYNTHESISED = ['open-round', 'get-signing-key', 'get-table'];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pyb-tsa-'));
  writeFileSync(join(dir, 'a.pem'), PEM('tsa a'));
  writeFileSync(join(dir, 'b.pem'), PEM('tsa b'));
  writeFileSync(join(dir, 'key.txt'), 'not a certificate');
  outdir = mkdtempSync(join(tmpdir(), 'pyb-cdk-tsa-'));
  const built = buildApp(
    {
      outdir,
      context: {
        timeStampAuthorities: `https://tsa-a.example/tsr=${join(dir, 'a.pem')},http://tsa-b.example=${join(dir, 'b.pem')}`,
      },
    },
    ROUTES.filter((r) => SYNTHESISED.includes(r.handler)),
    [],
  );
  built.app.synth();
  resources = appTemplate(built.stack).toJSON().Resources;
}, 300_000);
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

const fn = (name: string): Cfn =>
  Object.values(resources).find(
    (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.FunctionName === `pyb-dev-${name}`,
  )!.Properties;

describe('time-stamp authorities in the stage', () => {
  it('the functions that anchor heads or publish the pins get the TSAs, in order; the others do not', () => {
    for (const name of ['open-round', 'get-signing-key']) {
      expect(fn(name).Environment.Variables).toMatchObject({
        TSA_URLS: 'https://tsa-a.example/tsr,http://tsa-b.example',
        TSA_CERTS: '/var/task/tsa/0.pem,/var/task/tsa/1.pem',
      });
    }
    expect(fn('get-table').Environment.Variables.TSA_URLS).toBeUndefined();
    expect(fn('get-table').Environment.Variables.TSA_CERTS).toBeUndefined();
  });

  it('each certificate is in the function package at the path TSA_CERTS names, byte for byte', () => {
    const key = fn('open-round').Code.S3Key as string;
    const asset = join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
    expect(readFileSync(join(asset, 'tsa/0.pem'), 'utf8')).toBe(PEM('tsa a'));
    expect(readFileSync(join(asset, 'tsa/1.pem'), 'utf8')).toBe(PEM('tsa b'));
    const other = join(outdir, `asset.${(fn('get-table').Code.S3Key as string).replace(/\.zip$/, '')}`);
    expect(readdirSync(other)).not.toContain('tsa');
  });

  it('every function that may sign gets the TSAs: the first to sign with a new key generation time-stamps its certificate', () => {
    const signers = [...ROUTES, ...WORKERS].filter((f) => f.kms?.includes('Sign')).map((f) => f.handler);
    expect(signers.length).toBeGreaterThan(5);
    expect(signers.filter((h) => !(TIME_STAMP_USERS as readonly string[]).includes(h))).toEqual([]);
  });

  it('TIME_STAMP_USERS are exactly the handlers that import functions/src/time-stamps.ts', () => {
    const handlers = (base: string) =>
      readdirSync(join(REPO_ROOT, base), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => ({ name: d.name, file: join(REPO_ROOT, base, d.name, 'handler.ts') }))
        .filter(({ file }) => {
          try {
            return /from '(\.\.\/)+src\/time-stamps'/.test(readFileSync(file, 'utf8'));
          } catch {
            return false;
          }
        })
        .map(({ name }) => name);
    expect([...handlers('functions'), ...handlers('functions/jobs')].sort()).toEqual(
      [...TIME_STAMP_USERS].sort(),
    );
  });
});

describe('the timeStampAuthorities context', () => {
  it('takes URL=FILE pairs (split at the last =) or a JSON list, files read from where the CDK runs', () => {
    expect(parseTimeStampAuthorities(undefined)).toEqual([]);
    expect(parseTimeStampAuthorities('https://t.example/tsr?x=1=a.pem', dir)).toEqual([
      { url: 'https://t.example/tsr?x=1', certificate: join(dir, 'a.pem') },
    ]);
    expect(parseTimeStampAuthorities([{ url: 'http://t.example', certificate: 'b.pem' }], dir)).toEqual([
      { url: 'http://t.example', certificate: join(dir, 'b.pem') },
    ]);
  });

  it('refuses what would leave a stage unable to anchor, saying what to fix', () => {
    expect(() => parseTimeStampAuthorities('a.pem', dir)).toThrow(/is not URL=FILE\.pem/);
    expect(() => parseTimeStampAuthorities('ftp://t.example=a.pem', dir)).toThrow(/not an http\(s\) URL/);
    expect(() => parseTimeStampAuthorities('https://t.example=missing.pem', dir)).toThrow(/does not exist/);
    expect(() => parseTimeStampAuthorities('https://t.example=key.txt', dir)).toThrow(
      /holds no PEM certificate/,
    );
  });
});
