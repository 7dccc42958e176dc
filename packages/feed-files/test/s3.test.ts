import { createHash } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { feedFilesFromEnv, S3FeedFiles } from '../src/index';

const KEY = 'feed/acme/2026-12-01/feed.ndjson';
const TYPE = 'application/x-ndjson';
const utf8 = new TextEncoder();
const b64 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');
const hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function* chunks(...texts: string[]): AsyncGenerator<Uint8Array> {
  for (const t of texts) yield utf8.encode(t);
}

const files = (partBytes?: number) => {
  const client = new S3Client({
    region: 'eu-west-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
  });
  const mock = mockClient(client);
  return {
    mock,
    files: new S3FeedFiles({ bucket: 'pyb-prod-feed', client, ...(partBytes && { partBytes }) }),
  };
};

describe('S3FeedFiles', () => {
  it('writes a file smaller than a part as one PutObject with its SHA-256 checksum and content type', async () => {
    const { mock, files: f } = files();
    mock.on(PutObjectCommand).resolves({});
    const whole = utf8.encode('{"type":"a"}\n{"type":"b"}\n');
    expect(await f.write(KEY, TYPE, chunks('{"type":"a"}\n', '{"type":"b"}\n'))).toEqual({
      key: KEY,
      bytes: whole.length,
      sha256: hex(whole),
    });
    expect(mock.commandCalls(PutObjectCommand).map((c) => c.args[0].input)).toEqual([
      {
        Bucket: 'pyb-prod-feed',
        Key: KEY,
        Body: Buffer.from(whole),
        ContentType: TYPE,
        ChecksumSHA256: b64(whole),
      },
    ]);
    expect(mock.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
  });

  it('streams a larger file by a multipart upload, a part as soon as it fills, each with its checksum', async () => {
    const { mock, files: f } = files(10);
    mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-1' });
    mock.on(UploadPartCommand).callsFake((input) => ({ ETag: `"etag-${input.PartNumber}"` }));
    mock.on(CompleteMultipartUploadCommand).resolves({});
    const parts = ['0123456789ab', 'cdefghij', 'kl'].map((t) => utf8.encode(t));
    const written = await f.write(KEY, TYPE, chunks('0123456789ab', 'cdefghij', 'kl'));
    expect(written.bytes).toBe(22);
    expect(written.sha256).toBe(hex(utf8.encode('0123456789abcdefghijkl')));
    expect(mock.commandCalls(CreateMultipartUploadCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: 'pyb-prod-feed', Key: KEY, ContentType: TYPE, ChecksumAlgorithm: 'SHA256' },
    ]);
    // 12 bytes fill the first part at once; 8 + 2 make the last one (parts hold whole chunks).
    const sent = mock.commandCalls(UploadPartCommand).map((c) => c.args[0].input);
    expect(
      sent.map((p) => [p.PartNumber, Buffer.from(p.Body as Uint8Array).toString(), p.ChecksumSHA256]),
    ).toEqual([
      [1, '0123456789ab', b64(parts[0]!)],
      [2, 'cdefghijkl', b64(utf8.encode('cdefghijkl'))],
    ]);
    expect(sent.every((p) => p.UploadId === 'up-1' && p.Key === KEY)).toBe(true);
    expect(mock.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input).toEqual({
      Bucket: 'pyb-prod-feed',
      Key: KEY,
      UploadId: 'up-1',
      MultipartUpload: {
        Parts: [
          { PartNumber: 1, ETag: '"etag-1"', ChecksumSHA256: b64(parts[0]!) },
          { PartNumber: 2, ETag: '"etag-2"', ChecksumSHA256: b64(utf8.encode('cdefghijkl')) },
        ],
      },
    });
    expect(mock.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('aborts the upload when the records fail midway: nothing appears at the key', async () => {
    const { mock, files: f } = files(4);
    mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-2' });
    mock.on(UploadPartCommand).resolves({ ETag: '"e"' });
    mock.on(AbortMultipartUploadCommand).resolves({});
    async function* failing() {
      yield utf8.encode('12345');
      throw new Error('store read failed');
    }
    await expect(f.write(KEY, TYPE, failing())).rejects.toThrow('store read failed');
    expect(mock.commandCalls(AbortMultipartUploadCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: 'pyb-prod-feed', Key: KEY, UploadId: 'up-2' },
    ]);
    expect(mock.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
  });

  it('lists a prefix across pages; reads a file, not one over the limit, and nothing for a missing key', async () => {
    const { mock, files: f } = files();
    const at = new Date('2026-12-02T00:05:00.000Z');
    mock
      .on(ListObjectsV2Command, {
        Bucket: 'pyb-prod-feed',
        Prefix: 'feed/acme/2026-12-01/',
        ContinuationToken: undefined,
      })
      .resolves({
        Contents: [{ Key: `${KEY.slice(0, -6)}csv`, Size: 7, LastModified: at }],
        IsTruncated: true,
        NextContinuationToken: 'n',
      })
      .on(ListObjectsV2Command, {
        Bucket: 'pyb-prod-feed',
        Prefix: 'feed/acme/2026-12-01/',
        ContinuationToken: 'n',
      })
      .resolves({ Contents: [{ Key: KEY, Size: 9, LastModified: at }], IsTruncated: false });
    expect(await f.list('feed/acme/2026-12-01/')).toEqual([
      { key: 'feed/acme/2026-12-01/feed.csv', bytes: 7, modifiedAt: at.toISOString() },
      { key: KEY, bytes: 9, modifiedAt: at.toISOString() },
    ]);
    mock.on(HeadObjectCommand, { Key: KEY }).resolves({ ContentLength: 9, ContentType: TYPE });
    mock.on(GetObjectCommand, { Key: KEY }).resolves({
      Body: { transformToByteArray: async () => utf8.encode('{"a":1}\n') },
    } as never);
    const read = await f.read(KEY, 100);
    expect([read?.contentType, read?.bytes, Buffer.from(read!.body!).toString()]).toEqual([
      TYPE,
      9,
      '{"a":1}\n',
    ]);
    expect(await f.read(KEY, 8)).toEqual({ contentType: TYPE, bytes: 9 });
    expect(mock.commandCalls(GetObjectCommand)).toHaveLength(1);
    mock.on(HeadObjectCommand, { Key: 'missing' }).rejects(
      new S3ServiceException({
        name: 'NotFound',
        $fault: 'client',
        $metadata: { httpStatusCode: 404 },
        message: 'x',
      }),
    );
    expect(await f.read('missing', 100)).toBeUndefined();
  });

  it('is chosen by FEED_BUCKET; without it the local folder, refused on Lambda', () => {
    expect(feedFilesFromEnv({ FEED_BUCKET: 'b', AWS_REGION: 'eu-west-1' }).description).toBe('s3://b');
    expect(feedFilesFromEnv({ FEED_DIR: '/tmp/x' }).description).toBe('local folder /tmp/x');
    expect(() => feedFilesFromEnv({ AWS_LAMBDA_FUNCTION_NAME: 'f' })).toThrow(/FEED_BUCKET/);
  });
});
