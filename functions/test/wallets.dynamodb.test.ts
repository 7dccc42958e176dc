/**
 * The composition of seamless wallets (functions/src/seamless.ts): an operator record's base URL and
 * secret reference become a signed client of its wallet — over real HTTP against the reference
 * wallet — with its secret from the environment (local) or Secrets Manager (AWS), rebuilt when the
 * record changes.
 */
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { OperatorRecord } from '@pyb/core';
import { ReferenceWallet } from '@pyb/seamless-wallet/reference-wallet';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppContext, buildContext } from '../src/context';
import { secretsOf, walletOnFirstUse, walletsOf } from '../src/seamless';

const SECRET = 'a-local-secret-of-at-least-32-characters';
let wallet: ReferenceWallet;

beforeAll(async () => {
  wallet = await ReferenceWallet.start({ secrets: [SECRET] });
  wallet.fund('ana', 'EUR', 5000);
});
afterAll(() => wallet.close());

const record = (secretRef: string, baseUrl = wallet.url): OperatorRecord => ({
  operatorId: 'casino-b',
  walletMode: 'seamless',
  seamless: { baseUrl, secretRef },
  createdAt: 't',
  updatedAt: 't',
});

const context = (env: Record<string, string>): AppContext =>
  buildContext({ TABLE_PREFIX: 'unused', DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', ...env });

describe('walletsOf', () => {
  it('signs with the secret its record names (env:NAME locally) and reads the operator’s wallet', async () => {
    const wallets = walletsOf(context({ WALLET_SECRET: SECRET }));
    const out = await wallets(record('env:WALLET_SECRET')).balance({ playerId: 'ana', currency: 'EUR' });
    expect(out).toMatchObject({ outcome: 'OK', answer: { balance: 5000 } });
    // Another secret than the wallet's: its answers are not trusted, nothing is OK.
    const wrong = walletsOf(context({ WALLET_SECRET: 'not-the-secret-but-32-characters-long' }));
    expect(
      await wrong(record('env:WALLET_SECRET')).balance({ playerId: 'ana', currency: 'EUR' }),
    ).toMatchObject({
      outcome: 'UNKNOWN',
    });
  });

  it('one client per operator, rebuilt when its base URL or secret changes; a hosted record has none', () => {
    const wallets = walletsOf(context({ A: SECRET, B: SECRET }));
    const first = wallets(record('env:A'));
    expect(wallets(record('env:A'))).toBe(first);
    expect(wallets(record('env:B'))).not.toBe(first);
    expect(wallets(record('env:B', 'http://127.0.0.1:1/pyb'))).not.toBe(first);
    expect(() => wallets({ operatorId: 'h', walletMode: 'hosted', createdAt: 't', updatedAt: 't' })).toThrow(
      /no seamless wallet/,
    );
  });
});

describe('walletOnFirstUse', () => {
  const request = { playerId: 'ana', currency: 'EUR' };

  it('makes the client on the first call only, and every method goes to it', async () => {
    let made = 0;
    const calls: string[] = [];
    const answer = (op: string) => async () => {
      calls.push(op);
      return { outcome: 'UNKNOWN' as const, reason: op };
    };
    const wallet = walletOnFirstUse(async () => {
      made++;
      return {
        balance: answer('balance'),
        debit: answer('debit'),
        credit: answer('credit'),
        rollback: answer('rollback'),
      };
    });
    expect(made).toBe(0);
    await wallet.balance(request);
    await wallet.rollback({} as never);
    expect(made).toBe(1);
    expect(calls).toEqual(['balance', 'rollback']);
  });

  it('a client that cannot be made answers UNKNOWN (the port never rejects: a debit is then rolled back), and is tried again', async () => {
    let attempts = 0;
    const wallet = walletOnFirstUse(async () => {
      attempts++;
      throw new Error('chunk not loaded');
    });
    expect(await wallet.debit({} as never)).toEqual({
      outcome: 'UNKNOWN',
      reason: 'no wallet client: chunk not loaded',
    });
    await wallet.credit({} as never);
    expect(attempts).toBe(2);
  });

  it('through walletsOf: a record whose base URL does not parse gets UNKNOWN answers, not a throw', async () => {
    const wallets = walletsOf(context({ WALLET_SECRET: SECRET }));
    expect(await wallets(record('env:WALLET_SECRET', 'not a url')).balance(request)).toMatchObject({
      outcome: 'UNKNOWN',
      reason: expect.stringMatching(/^no wallet client: /),
    });
  });
});

describe('secretsOf', () => {
  const ctx = (env: Record<string, string> = {}) => context(env);

  it('env:NAME holds the secret; a missing variable is an error, not an empty secret', async () => {
    expect(await secretsOf(ctx({ S: 'only' }), 'env:S')()).toEqual({ current: 'only' });
    await expect(secretsOf(ctx(), 'env:S')()).rejects.toThrow(/S is not set/);
  });

  it('anything else is a Secrets Manager id: AWSCURRENT signs, AWSPREVIOUS verifies', async () => {
    const sm = mockClient(SecretsManagerClient);
    const current = 'c'.repeat(48);
    const previous = 'p'.repeat(48);
    sm.on(GetSecretValueCommand, {
      SecretId: 'pyb-prod/seamless/casino-b',
      VersionStage: 'AWSCURRENT',
    }).resolves({ SecretString: current });
    sm.on(GetSecretValueCommand, {
      SecretId: 'pyb-prod/seamless/casino-b',
      VersionStage: 'AWSPREVIOUS',
    }).resolves({ SecretString: previous });
    expect(await secretsOf(ctx(), 'pyb-prod/seamless/casino-b')()).toEqual({ current, previous });
    sm.reset();
    sm.on(GetSecretValueCommand, { VersionStage: 'AWSCURRENT' }).resolves({ SecretString: current });
    sm.on(GetSecretValueCommand, { VersionStage: 'AWSPREVIOUS' }).rejects(
      new ResourceNotFoundException({ message: 'no previous', $metadata: {} }),
    );
    expect(await secretsOf(ctx(), 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:x')()).toEqual({
      current,
    });
    sm.restore();
  });
});
