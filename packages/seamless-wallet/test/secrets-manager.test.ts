import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { secretsManagerSecrets } from '../src/secrets-manager';

const sm = mockClient(SecretsManagerClient);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const notFound = () => new ResourceNotFoundException({ message: 'no AWSPREVIOUS', $metadata: {} });

beforeEach(() => sm.reset());
// The fast tier shares one module graph (vitest.config.ts): the class goes back to the next file unmocked.
afterAll(() => sm.restore());

describe('seamless secrets from Secrets Manager', () => {
  it('reads AWSCURRENT and AWSPREVIOUS of the operator secret: the exact requests', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'pyb/dev/seamless/acme', VersionStage: 'AWSCURRENT' }).resolves({
      SecretString: B,
    });
    sm.on(GetSecretValueCommand, { SecretId: 'pyb/dev/seamless/acme', VersionStage: 'AWSPREVIOUS' }).resolves(
      { SecretString: A },
    );
    const secrets = secretsManagerSecrets({
      secretId: 'pyb/dev/seamless/acme',
      client: new SecretsManagerClient({}),
    });
    expect(await secrets()).toEqual({ current: B, previous: A });
    expect(sm.commandCalls(GetSecretValueCommand).map((c) => c.args[0].input)).toEqual([
      { SecretId: 'pyb/dev/seamless/acme', VersionStage: 'AWSCURRENT' },
      { SecretId: 'pyb/dev/seamless/acme', VersionStage: 'AWSPREVIOUS' },
    ]);
  });

  it('a secret never rotated has no previous; a too short one is refused', async () => {
    sm.on(GetSecretValueCommand, { VersionStage: 'AWSCURRENT' }).resolves({ SecretString: A });
    sm.on(GetSecretValueCommand, { VersionStage: 'AWSPREVIOUS' }).rejects(notFound());
    expect(await secretsManagerSecrets({ secretId: 's', client: new SecretsManagerClient({}) })()).toEqual({
      current: A,
    });
    sm.on(GetSecretValueCommand, { VersionStage: 'AWSCURRENT' }).resolves({ SecretString: 'short' });
    await expect(
      secretsManagerSecrets({ secretId: 's', client: new SecretsManagerClient({}) })(),
    ).rejects.toThrow(/shorter/);
  });

  it('caches for the TTL, then reads again (a rotation reaches the process), and does not cache a failure', async () => {
    let t = 0;
    sm.on(GetSecretValueCommand, { VersionStage: 'AWSCURRENT' })
      .resolvesOnce({ SecretString: A })
      .resolves({ SecretString: B });
    sm.on(GetSecretValueCommand, { VersionStage: 'AWSPREVIOUS' })
      .rejectsOnce(notFound())
      .resolves({ SecretString: A });
    const secrets = secretsManagerSecrets({
      secretId: 's',
      client: new SecretsManagerClient({}),
      ttlMs: 1000,
      now: () => t,
    });
    expect(await secrets()).toEqual({ current: A });
    t = 999;
    expect(await secrets()).toEqual({ current: A });
    t = 1000;
    expect(await secrets()).toEqual({ current: B, previous: A });
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(4);

    sm.reset();
    sm.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: A });
    const flaky = secretsManagerSecrets({
      secretId: 's',
      client: new SecretsManagerClient({}),
      now: () => 0,
    });
    await expect(flaky()).rejects.toThrow('throttled');
    expect(await flaky()).toEqual({ current: A });
  });
});
