/**
 * A KMS that answers like KMS: the mocked client's commands are served by Node crypto, with KMS's
 * rules (encryption context authenticated, ciphertext bound to its key, RAW ECDSA_SHA_256 signing, the
 * key's ARN in answers, modelled exceptions on misuse). The contract tests then mean something for
 * the KMS adapter too.
 */
import { createCipheriv, createDecipheriv, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import {
  DecryptCommand,
  EncryptCommand,
  GenerateRandomCommand,
  GetPublicKeyCommand,
  IncorrectKeyException,
  InvalidCiphertextException,
  InvalidKeyUsageException,
  KMSClient,
  NotFoundException,
  SignCommand,
  UnsupportedOperationException,
} from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';

export const SEAL_KEY_ARN = 'arn:aws:kms:eu-west-1:111122223333:key/0d1b2a3c-seal-4e5f-8a9b-000000000001';
export const SIGN_KEY_ARN = 'arn:aws:kms:eu-west-1:111122223333:key/0d1b2a3c-sign-4e5f-8a9b-000000000002';
export const SEAL_ALIAS = 'alias/pyb-seeds';
export const SIGN_ALIAS = 'alias/pyb-statements';

/** The ARN of the signing key that the n-th rotation creates (1: the first new key). */
export const rotatedSignKeyArn = (n: number) =>
  `arn:aws:kms:eu-west-1:111122223333:key/0d1b2a3c-sign-4e5f-8a9b-${String(100 + n).padStart(12, '0')}`;

const meta = { $metadata: {} };

/** Context pairs are authenticated regardless of order, as in KMS. */
const contextAad = (context: Record<string, string> | undefined) =>
  Buffer.from(JSON.stringify(Object.entries(context ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))));

export function fakeKms() {
  const client = new KMSClient({
    region: 'eu-west-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
  });
  const mock = mockClient(client);
  const symmetric = randomBytes(32);
  // Signing keys by ARN; the alias points at the newest, older ones stay (as a stack update retains them).
  const signing = new Map([[SIGN_KEY_ARN, generateKeyPairSync('ec', { namedCurve: 'P-256' })]]);
  let current = SIGN_KEY_ARN;
  const keyTag = Buffer.from(SEAL_KEY_ARN);
  const resolve = (keyId: string | undefined): string | undefined =>
    keyId === SEAL_ALIAS || keyId === SEAL_KEY_ARN
      ? SEAL_KEY_ARN
      : keyId === SIGN_ALIAS
        ? current
        : keyId !== undefined && signing.has(keyId)
          ? keyId
          : undefined;

  mock.on(GenerateRandomCommand).callsFake(({ NumberOfBytes }) => {
    if (!Number.isInteger(NumberOfBytes) || NumberOfBytes < 1 || NumberOfBytes > 1024) {
      throw validation('NumberOfBytes out of range');
    }
    return { Plaintext: new Uint8Array(randomBytes(NumberOfBytes)) };
  });

  mock.on(EncryptCommand).callsFake(({ KeyId, Plaintext, EncryptionContext }) => {
    const arn = resolve(KeyId);
    if (!arn) throw new NotFoundException({ message: `Key '${KeyId}' does not exist`, ...meta });
    if (arn !== SEAL_KEY_ARN)
      throw new InvalidKeyUsageException({ message: 'KeyUsage is SIGN_VERIFY', ...meta });
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', symmetric, iv);
    cipher.setAAD(Buffer.concat([keyTag, contextAad(EncryptionContext)]));
    const body = Buffer.concat([cipher.update(Plaintext), cipher.final()]);
    return {
      CiphertextBlob: new Uint8Array(Buffer.concat([iv, body, cipher.getAuthTag()])),
      KeyId: SEAL_KEY_ARN,
      EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
    };
  });

  mock.on(DecryptCommand).callsFake(({ KeyId, CiphertextBlob, EncryptionContext }) => {
    const arn = resolve(KeyId);
    if (KeyId !== undefined && arn !== SEAL_KEY_ARN) {
      throw new IncorrectKeyException({
        message: 'The key ID in the request does not identify the key that encrypted the ciphertext',
        ...meta,
      });
    }
    const blob = Buffer.from(CiphertextBlob as Uint8Array);
    try {
      const decipher = createDecipheriv('aes-256-gcm', symmetric, blob.subarray(0, 12));
      decipher.setAAD(Buffer.concat([keyTag, contextAad(EncryptionContext)]));
      decipher.setAuthTag(blob.subarray(blob.length - 16));
      const plain = Buffer.concat([decipher.update(blob.subarray(12, blob.length - 16)), decipher.final()]);
      return {
        Plaintext: new Uint8Array(plain),
        KeyId: SEAL_KEY_ARN,
        EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
      };
    } catch {
      throw new InvalidCiphertextException({ message: '', ...meta });
    }
  });

  mock.on(SignCommand).callsFake(({ KeyId, Message, MessageType, SigningAlgorithm }) => {
    const arn = resolve(KeyId);
    if (!arn) throw new NotFoundException({ message: `Key '${KeyId}' does not exist`, ...meta });
    const key = signing.get(arn);
    if (!key) throw new InvalidKeyUsageException({ message: 'KeyUsage is ENCRYPT_DECRYPT', ...meta });
    if (SigningAlgorithm !== 'ECDSA_SHA_256')
      throw new InvalidKeyUsageException({ message: 'bad algorithm', ...meta });
    if (MessageType !== 'RAW' || (Message as Uint8Array).length > 4096) {
      throw validation('MessageType RAW takes at most 4096 bytes');
    }
    const signature = sign('sha256', Message as Uint8Array, { key: key.privateKey, dsaEncoding: 'der' });
    return { KeyId: arn, Signature: new Uint8Array(signature), SigningAlgorithm };
  });

  mock.on(GetPublicKeyCommand).callsFake(({ KeyId }) => {
    const arn = resolve(KeyId);
    if (!arn) throw new NotFoundException({ message: `Key '${KeyId}' does not exist`, ...meta });
    const key = signing.get(arn);
    if (!key) {
      throw new UnsupportedOperationException({
        message: 'GetPublicKey needs an asymmetric key',
        ...meta,
      });
    }
    return {
      KeyId: arn,
      PublicKey: new Uint8Array(key.publicKey.export({ format: 'der', type: 'spki' })),
      KeySpec: 'ECC_NIST_P256',
      KeyUsage: 'SIGN_VERIFY',
      SigningAlgorithms: ['ECDSA_SHA_256'],
    };
  });

  /** A new signing key; the alias moves to it, the old key stays. Returns the new ARN. */
  const rotate = (): string => {
    current = rotatedSignKeyArn(signing.size);
    signing.set(current, generateKeyPairSync('ec', { namedCurve: 'P-256' }));
    return current;
  };

  return { client, mock, rotate };
}

/** KMS's (unmodelled) request validation error. */
function validation(message: string): Error {
  return Object.assign(new Error(message), { name: 'ValidationException', $fault: 'client', $metadata: {} });
}
