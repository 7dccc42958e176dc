import { createHash } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { archiveFromEnv, S3AuditArchive } from '../src/index';

const body = new TextEncoder().encode('{"format":"pyb-shoe-bundle/1"}');
const digest = createHash('sha256').update(body).digest();
const object = {
  key: 'shoes/acme/shoe-1.json',
  body,
  contentType: 'application/json',
  retainUntil: new Date('2036-12-01T00:00:00.000Z'),
  metadata: { format: 'pyb-shoe-bundle/1', 'operator-id': 'acme', 'table-id': 't-1', 'shoe-id': 'shoe-1' },
};
const s3Error = (name: string, status: number) =>
  new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message: name });

const archive = () => {
  const client = new S3Client({
    region: 'eu-west-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
  });
  const mock = mockClient(client);
  return {
    mock,
    archive: new S3AuditArchive({ bucket: 'pyb-prod-archive', lockMode: 'COMPLIANCE', client }),
  };
};

describe('S3AuditArchive', () => {
  it('puts once: If-None-Match *, SHA-256 checksum, Object Lock mode and retain-until, metadata', async () => {
    const { mock, archive: a } = archive();
    mock.on(PutObjectCommand).resolves({});
    expect(await a.putOnce(object)).toEqual({ status: 'CREATED', sha256: digest.toString('hex') });
    expect(mock.commandCalls(PutObjectCommand).map((c) => c.args[0].input)).toEqual([
      {
        Bucket: 'pyb-prod-archive',
        Key: 'shoes/acme/shoe-1.json',
        Body: body,
        ContentType: 'application/json',
        IfNoneMatch: '*',
        ChecksumSHA256: digest.toString('base64'),
        ObjectLockMode: 'COMPLIANCE',
        ObjectLockRetainUntilDate: new Date('2036-12-01T00:00:00.000Z'),
        Metadata: { ...object.metadata, sha256: digest.toString('hex') },
      },
    ]);
    expect(mock.commandCalls(HeadObjectCommand)).toHaveLength(0);
  });

  it('a key already holding the same bytes is EXISTS (checked by the stored checksum)', async () => {
    const { mock, archive: a } = archive();
    mock.on(PutObjectCommand).rejects(s3Error('PreconditionFailed', 412));
    mock.on(HeadObjectCommand).resolves({ ChecksumSHA256: digest.toString('base64') });
    expect(await a.putOnce(object)).toEqual({ status: 'EXISTS', sha256: digest.toString('hex') });
    expect(mock.commandCalls(HeadObjectCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: 'pyb-prod-archive', Key: 'shoes/acme/shoe-1.json', ChecksumMode: 'ENABLED' },
    ]);
  });

  it('a key holding other bytes is ARCHIVE_MISMATCH, never overwritten', async () => {
    const { mock, archive: a } = archive();
    mock.on(PutObjectCommand).rejects(s3Error('PreconditionFailed', 412));
    mock.on(HeadObjectCommand).resolves({ ChecksumSHA256: Buffer.alloc(32, 7).toString('base64') });
    await expect(a.putOnce(object)).rejects.toMatchObject({ code: 'ARCHIVE_MISMATCH' });
    expect(mock.commandCalls(PutObjectCommand)).toHaveLength(1);
  });

  it('other failures (a concurrent write 409, access denied) propagate, so the event is retried', async () => {
    for (const [name, status] of [
      ['ConditionalRequestConflict', 409],
      ['AccessDenied', 403],
    ] as const) {
      const { mock, archive: a } = archive();
      mock.on(PutObjectCommand).rejects(s3Error(name, status));
      await expect(a.putOnce(object)).rejects.toMatchObject({ name });
      expect(mock.commandCalls(HeadObjectCommand)).toHaveLength(0);
    }
  });
});

describe('S3AuditArchive.stored (the archive check)', () => {
  it('asks HeadObject with ChecksumMode ENABLED and answers the stored SHA-256 in hex', async () => {
    const { mock, archive: a } = archive();
    mock.on(HeadObjectCommand).resolves({ ChecksumSHA256: digest.toString('base64') });
    expect(await a.stored(object.key)).toEqual({ sha256: digest.toString('hex') });
    expect(mock.commandCalls(HeadObjectCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: 'pyb-prod-archive', Key: 'shoes/acme/shoe-1.json', ChecksumMode: 'ENABLED' },
    ]);
  });

  it('a 404 is "not there"; any other error is thrown (the check must not count it as archived or missing)', async () => {
    const { mock, archive: a } = archive();
    mock
      .on(HeadObjectCommand)
      .rejectsOnce(s3Error('NotFound', 404))
      .rejectsOnce(s3Error('AccessDenied', 403));
    expect(await a.stored(object.key)).toBeUndefined();
    await expect(a.stored(object.key)).rejects.toMatchObject({ name: 'AccessDenied' });
  });
});

describe('archiveFromEnv', () => {
  it('S3 when ARCHIVE_BUCKET is set; the local folder otherwise, refused in production', () => {
    expect(
      archiveFromEnv({ ARCHIVE_BUCKET: 'b', RETENTION_DAYS: '3653', AWS_REGION: 'eu-west-1' }),
    ).toMatchObject({
      retentionDays: 3653,
      description: 's3://b (Object Lock COMPLIANCE)',
    });
    expect(archiveFromEnv({ RETENTION_DAYS: '30', ARCHIVE_DIR: '/tmp/x' }).description).toBe(
      'local folder /tmp/x',
    );
    expect(() => archiveFromEnv({ RETENTION_DAYS: '30', NODE_ENV: 'production' })).toThrow(/ARCHIVE_BUCKET/);
    expect(() => archiveFromEnv({ ARCHIVE_BUCKET: 'b' })).toThrow(/RETENTION_DAYS/);
    expect(() =>
      archiveFromEnv({ ARCHIVE_BUCKET: 'b', RETENTION_DAYS: '1', ARCHIVE_LOCK_MODE: 'LEGAL' }),
    ).toThrow(/ARCHIVE_LOCK_MODE/);
  });
});
