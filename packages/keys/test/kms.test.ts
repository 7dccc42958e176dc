import { generateKeyPairSync } from 'node:crypto';
import {
  DecryptCommand,
  DisabledException,
  EncryptCommand,
  GenerateRandomCommand,
  GetPublicKeyCommand,
  KMSClient,
  KMSInternalException,
  SignCommand,
} from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { KeyServiceError, KmsKeyService, mapKmsError } from '../src/index';
import { fakeKms, SEAL_ALIAS, SEAL_KEY_ARN, SIGN_ALIAS, SIGN_KEY_ARN } from './fake-kms';

const ctx = { shoeId: 'shoe-9', operatorId: 'op-7' };
const service = () => {
  const { client, mock } = fakeKms();
  return { keys: new KmsKeyService({ sealKeyId: SEAL_ALIAS, signKeyId: SIGN_ALIAS, client }), mock };
};
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as KeyServiceError,
  );
const awsError = (name: string, message = name) =>
  Object.assign(new Error(message), { name, $fault: 'client', $metadata: { httpStatusCode: 400 } });

describe('KmsKeyService requests', () => {
  it('asks GenerateRandom for exactly 32 bytes', async () => {
    const { keys, mock } = service();
    await keys.generateSeed();
    expect(mock.commandCalls(GenerateRandomCommand).map((c) => c.args[0].input)).toEqual([
      { NumberOfBytes: 32 },
    ]);
  });

  it('encrypts and decrypts under the seal key with {shoeId, operatorId} as encryption context', async () => {
    const { keys, mock } = service();
    const seed = new Uint8Array(32).fill(9);
    const sealed = await keys.sealSeed(seed, ctx);
    await keys.unsealSeed(sealed, ctx);
    expect(mock.commandCalls(EncryptCommand).map((c) => c.args[0].input)).toEqual([
      { KeyId: SEAL_ALIAS, Plaintext: seed, EncryptionContext: { shoeId: 'shoe-9', operatorId: 'op-7' } },
    ]);
    expect(mock.commandCalls(DecryptCommand).map((c) => c.args[0].input)).toEqual([
      {
        KeyId: SEAL_ALIAS,
        CiphertextBlob: sealed,
        EncryptionContext: { shoeId: 'shoe-9', operatorId: 'op-7' },
      },
    ]);
  });

  it('signs RAW messages with ECDSA_SHA_256 and reports the key ARN KMS answered with', async () => {
    const { keys, mock } = service();
    const message = new TextEncoder().encode('statement');
    const signed = await keys.sign(message);
    expect(signed.keyId).toBe(SIGN_KEY_ARN);
    expect(mock.commandCalls(SignCommand).map((c) => c.args[0].input)).toEqual([
      { KeyId: SIGN_ALIAS, Message: message, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' },
    ]);
  });

  it('signs with a named key when asked (the previous generation certifying the next at a handover)', async () => {
    const { keys, mock } = service();
    const message = new TextEncoder().encode('certificate');
    await keys.sign(message, SIGN_KEY_ARN);
    expect(mock.commandCalls(SignCommand).map((c) => c.args[0].input)).toEqual([
      { KeyId: SIGN_KEY_ARN, Message: message, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' },
    ]);
  });

  it('refuses to send a RAW message KMS would reject (over 4096 bytes)', async () => {
    const { keys, mock } = service();
    await expect(keys.sign(new Uint8Array(4097))).rejects.toThrow(/4096/);
    expect(mock.commandCalls(SignCommand)).toHaveLength(0);
  });

  it('fetches the public key once, shared by concurrent callers', async () => {
    const { keys, mock } = service();
    const [a, b] = await Promise.all([keys.publicKey(), keys.publicKey()]);
    const c = await keys.publicKey();
    expect(a).toBe(b);
    expect(c).toBe(a);
    expect(a.keyId).toBe(SIGN_KEY_ARN);
    expect(a.pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(mock.commandCalls(GetPublicKeyCommand).map((x) => x.args[0].input)).toEqual([
      { KeyId: SIGN_ALIAS },
    ]);
  });

  it('fetches a key by the id a statement names (KeyId = that id), once per id', async () => {
    const { client, mock, rotate } = fakeKms();
    const newer = rotate();
    const keys = new KmsKeyService({ sealKeyId: SEAL_ALIAS, signKeyId: SIGN_ALIAS, client });
    const [a, b] = await Promise.all([keys.publicKey(SIGN_KEY_ARN), keys.publicKey(SIGN_KEY_ARN)]);
    const current = await keys.publicKey();
    expect(a).toBe(b);
    expect(await keys.publicKey(SIGN_KEY_ARN)).toBe(a);
    expect([a.keyId, current.keyId]).toEqual([SIGN_KEY_ARN, newer]);
    expect(Buffer.from(a.spki).equals(Buffer.from(current.spki))).toBe(false);
    // The current key is cached under the ARN it answered with too: statements name it by that ARN.
    expect(await keys.publicKey(newer)).toBe(current);
    expect(mock.commandCalls(GetPublicKeyCommand).map((x) => x.args[0].input)).toEqual([
      { KeyId: SIGN_KEY_ARN },
      { KeyId: SIGN_ALIAS },
    ]);
  });

  it('calls a key KMS will not show for an id SIGNING_KEY_UNKNOWN, and the configured one misconfigured', async () => {
    const client = new KMSClient({ region: 'eu-west-1' });
    const mock = mockClient(client);
    mock.on(GetPublicKeyCommand).rejects(awsError('AccessDeniedException', 'not authorized'));
    const keys = new KmsKeyService({ sealKeyId: SEAL_ALIAS, signKeyId: SIGN_ALIAS, client });
    const named = await caught(keys.publicKey('arn:aws:kms:eu-west-1:444455556666:key/other'));
    expect(named).toMatchObject({ code: 'SIGNING_KEY_UNKNOWN', retryable: false });
    expect(named.message).toBe('KMS GetPublicKey failed: AccessDeniedException: not authorized');
    expect((await caught(keys.publicKey())).code).toBe('KEY_SERVICE_MISCONFIGURED');

    const { client: fake } = fakeKms();
    const real = new KmsKeyService({ sealKeyId: SEAL_ALIAS, signKeyId: SIGN_ALIAS, client: fake });
    // The seed key is symmetric (UnsupportedOperationException); an unknown key is NotFoundException.
    expect((await caught(real.publicKey(SEAL_KEY_ARN))).code).toBe('SIGNING_KEY_UNKNOWN');
    expect((await caught(real.publicKey(`${SIGN_KEY_ARN}0`))).code).toBe('SIGNING_KEY_UNKNOWN');
  });

  it('does not take a key of another spec for a signing key', async () => {
    const client = new KMSClient({ region: 'eu-west-1' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      format: 'der',
      type: 'spki',
    });
    mockClient(client)
      .on(GetPublicKeyCommand)
      .resolves({
        KeyId: SIGN_KEY_ARN,
        PublicKey: new Uint8Array(rsa),
        KeySpec: 'RSA_2048',
        SigningAlgorithms: ['RSASSA_PSS_SHA_256'],
      });
    const keys = new KmsKeyService({ sealKeyId: SEAL_ALIAS, signKeyId: SIGN_ALIAS, client });
    expect((await caught(keys.publicKey(SIGN_KEY_ARN))).code).toBe('SIGNING_KEY_UNKNOWN');
  });

  it('does not cache a failed fetch by id either', async () => {
    const { client, mock } = fakeKms();
    mock
      .on(GetPublicKeyCommand, { KeyId: SIGN_KEY_ARN })
      .rejectsOnce(awsError('ThrottlingException'))
      .callsFakeOnce(() => ({
        KeyId: SIGN_KEY_ARN,
        PublicKey: new Uint8Array(
          generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
            format: 'der',
            type: 'spki',
          }),
        ),
        KeySpec: 'ECC_NIST_P256',
        SigningAlgorithms: ['ECDSA_SHA_256'],
      }));
    const keys = new KmsKeyService({ sealKeyId: SEAL_ALIAS, signKeyId: SIGN_ALIAS, client });
    expect(await caught(keys.publicKey(SIGN_KEY_ARN))).toMatchObject({
      code: 'KEY_SERVICE_UNAVAILABLE',
      retryable: true,
    });
    expect((await keys.publicKey(SIGN_KEY_ARN)).keyId).toBe(SIGN_KEY_ARN);
    expect(mock.commandCalls(GetPublicKeyCommand)).toHaveLength(2);
  });

  it('does not cache a failed public-key fetch', async () => {
    const client = new KMSClient({ region: 'eu-west-1' });
    const mock = mockClient(client);
    const spki = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      format: 'der',
      type: 'spki',
    });
    mock
      .on(GetPublicKeyCommand)
      .rejectsOnce(new KMSInternalException({ message: 'boom', $metadata: {} }))
      .resolves({
        KeyId: SIGN_KEY_ARN,
        PublicKey: new Uint8Array(spki),
        KeySpec: 'ECC_NIST_P256',
        SigningAlgorithms: ['ECDSA_SHA_256'],
      });
    const keys = new KmsKeyService({ sealKeyId: SEAL_ALIAS, signKeyId: SIGN_ALIAS, client });
    expect((await caught(keys.publicKey())).code).toBe('KEY_SERVICE_UNAVAILABLE');
    expect((await keys.publicKey()).keyId).toBe(SIGN_KEY_ARN);
    expect(mock.commandCalls(GetPublicKeyCommand)).toHaveLength(2);
  });
});

describe('KmsKeyService responses and errors', () => {
  it('maps a wrong encryption context (InvalidCiphertextException) to SEALED_SEED_INVALID', async () => {
    const { keys } = service();
    const sealed = await keys.sealSeed(new Uint8Array(32), ctx);
    const error = await caught(keys.unsealSeed(sealed, { ...ctx, shoeId: 'other' }));
    expect(error).toBeInstanceOf(KeyServiceError);
    expect(error.code).toBe('SEALED_SEED_INVALID');
    expect(error.message).toMatch(/KMS Decrypt failed: InvalidCiphertextException/);
  });

  it.each([
    ['AccessDeniedException', 'KEY_SERVICE_MISCONFIGURED', false],
    ['NotFoundException', 'KEY_SERVICE_MISCONFIGURED', false],
    ['KMSInvalidStateException', 'KEY_SERVICE_MISCONFIGURED', false],
    ['ThrottlingException', 'KEY_SERVICE_UNAVAILABLE', true],
    ['DependencyTimeoutException', 'KEY_SERVICE_UNAVAILABLE', true],
    ['SomethingNewException', 'KEY_SERVICE_FAILED', false],
  ])('maps %s to %s', async (name, code, retryable) => {
    const client = new KMSClient({ region: 'eu-west-1' });
    mockClient(client)
      .on(SignCommand)
      .rejects(awsError(name, `${name} happened`));
    const keys = new KmsKeyService({ sealKeyId: SEAL_ALIAS, signKeyId: SIGN_ALIAS, client });
    const error = await caught(keys.sign(new Uint8Array(3)));
    expect(error).toMatchObject({ code, retryable, message: `KMS Sign failed: ${name}: ${name} happened` });
    expect(error.cause).toMatchObject({ name });
  });

  it('maps modelled exceptions by name (a disabled key)', () => {
    const error = mapKmsError(
      'Encrypt',
      new DisabledException({ message: 'key is disabled', $metadata: {} }),
    );
    expect(error).toMatchObject({ code: 'KEY_SERVICE_MISCONFIGURED', retryable: false });
  });

  it('maps using the wrong key for a job (InvalidKeyUsageException from KMS)', async () => {
    const { client } = fakeKms();
    const swapped = new KmsKeyService({ sealKeyId: SIGN_ALIAS, signKeyId: SEAL_ALIAS, client });
    expect((await caught(swapped.sealSeed(new Uint8Array(32), ctx))).code).toBe('KEY_SERVICE_MISCONFIGURED');
    expect((await caught(swapped.sign(new Uint8Array(1)))).code).toBe('KEY_SERVICE_MISCONFIGURED');
  });

  it('refuses answers the port cannot honour', async () => {
    const client = new KMSClient({ region: 'eu-west-1' });
    const mock = mockClient(client);
    mock.on(GenerateRandomCommand).resolves({ Plaintext: new Uint8Array(16) });
    mock.on(GetPublicKeyCommand).resolves({
      KeyId: SIGN_KEY_ARN,
      PublicKey: new Uint8Array(91),
      KeySpec: 'ECC_SECG_P256K1',
      SigningAlgorithms: ['ECDSA_SHA_256'],
    });
    mock.on(DecryptCommand).resolves({ Plaintext: new Uint8Array(31), KeyId: SEAL_KEY_ARN });
    const keys = new KmsKeyService({ sealKeyId: SEAL_ALIAS, signKeyId: SIGN_ALIAS, client });
    expect((await caught(keys.generateSeed())).code).toBe('KEY_SERVICE_BAD_RESPONSE');
    expect((await caught(keys.publicKey())).code).toBe('KEY_SERVICE_MISCONFIGURED');
    expect((await caught(keys.unsealSeed(new Uint8Array(60), ctx))).code).toBe('KEY_SERVICE_BAD_RESPONSE');
  });
});
