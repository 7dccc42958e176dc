/**
 * The feed's files on S3 (infra/src/feed.ts: versioned, encrypted, Object Lock for the retention
 * period). A file is streamed: its chunks are gathered into parts of PART_BYTES and sent by a multipart
 * upload as they fill, so the job never holds more than one part; a file smaller than one part is one
 * PutObject. Every part carries its SHA-256 (S3 checks it on receipt, and a bucket with Object Lock
 * requires a checksum); a failed upload is aborted, so nothing appears at the key. No rules here.
 */
import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  type FeedFile,
  type FeedFileInfo,
  type FeedFiles,
  type FeedFileWritten,
  onFirstUse,
} from '@pyb/core';

/** S3's smallest part is 5 MiB (the last excepted); 8 MiB keeps a day of 10,000 parts above 78 GiB. */
export const PART_BYTES = 8 * 1024 * 1024;

export interface S3FeedFilesOptions {
  bucket: string;
  client?: S3Client;
  region?: string;
  /** Default PART_BYTES (tests use smaller parts; S3 refuses parts under 5 MiB but the last). */
  partBytes?: number;
}

type S3 = typeof import('@aws-sdk/client-s3');

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

export class S3FeedFiles implements FeedFiles {
  private readonly partBytes: number;
  /**
   * The S3 client and its commands, loaded on first use (`onFirstUse`): the client is the largest
   * package of the feed functions' bundles, which then do not parse it at a cold start's import
   * (docs/architecture.md, "What a function loads").
   */
  private readonly load: () => Promise<{ s3: S3; client: S3Client }>;

  constructor(private readonly options: S3FeedFilesOptions) {
    this.partBytes = options.partBytes ?? PART_BYTES;
    this.load = onFirstUse(async () => {
      const s3 = await import('@aws-sdk/client-s3');
      return {
        s3,
        client: options.client ?? new s3.S3Client(options.region ? { region: options.region } : {}),
      };
    });
  }

  async write(key: string, contentType: string, chunks: AsyncIterable<Uint8Array>): Promise<FeedFileWritten> {
    const { s3, client } = await this.load();
    const Bucket = this.options.bucket;
    const whole = createHash('sha256');
    let bytes = 0;
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let uploadId: string | undefined;
    const parts: { PartNumber: number; ETag: string; ChecksumSHA256: string }[] = [];
    const take = (): Uint8Array => {
      const body = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      return body;
    };
    const sendPart = async (body: Uint8Array) => {
      uploadId ??= (
        await client.send(
          new s3.CreateMultipartUploadCommand({
            Bucket,
            Key: key,
            ContentType: contentType,
            ChecksumAlgorithm: 'SHA256',
          }),
        )
      ).UploadId;
      const PartNumber = parts.length + 1;
      const ChecksumSHA256 = sha256(body);
      const out = await client.send(
        new s3.UploadPartCommand({
          Bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber,
          Body: body,
          ChecksumSHA256,
        }),
      );
      parts.push({ PartNumber, ETag: out.ETag ?? '', ChecksumSHA256 });
    };
    try {
      for await (const chunk of chunks) {
        whole.update(chunk);
        bytes += chunk.length;
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= this.partBytes) await sendPart(take());
      }
      if (uploadId === undefined) {
        const body = take();
        await client.send(
          new s3.PutObjectCommand({
            Bucket,
            Key: key,
            Body: body,
            ContentType: contentType,
            ChecksumSHA256: sha256(body),
          }),
        );
      } else {
        if (pendingBytes > 0) await sendPart(take());
        await client.send(
          new s3.CompleteMultipartUploadCommand({
            Bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts },
          }),
        );
      }
    } catch (error) {
      if (uploadId !== undefined) {
        await client
          .send(new s3.AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }))
          .catch(() => {});
      }
      throw error;
    }
    return { key, bytes, sha256: whole.digest('hex') };
  }

  async list(prefix: string): Promise<FeedFileInfo[]> {
    const { s3, client } = await this.load();
    const out: FeedFileInfo[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new s3.ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken }),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key === undefined) continue;
        out.push({
          key: o.Key,
          bytes: o.Size ?? 0,
          modifiedAt: (o.LastModified ?? new Date(0)).toISOString(),
        });
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return out;
  }

  async read(key: string, maxBytes: number): Promise<FeedFile | undefined> {
    const { s3, client } = await this.load();
    const Bucket = this.options.bucket;
    let head: { ContentLength?: number; ContentType?: string };
    try {
      head = await client.send(new s3.HeadObjectCommand({ Bucket, Key: key }));
    } catch (error) {
      if (error instanceof s3.S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey'))
        return undefined;
      throw error;
    }
    const bytes = head.ContentLength ?? 0;
    const contentType = head.ContentType ?? 'application/octet-stream';
    if (bytes > maxBytes) return { contentType, bytes };
    const object = await client.send(new s3.GetObjectCommand({ Bucket, Key: key }));
    const body = object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
    return { contentType, bytes, body };
  }
}
