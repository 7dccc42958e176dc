/**
 * The audit archive on S3: a bucket with Object Lock (infra/src/retention.ts). Each bundle is written
 * once — `If-None-Match: *` makes S3 refuse a second object under the same key — with its SHA-256
 * checksum (S3 verifies it on receipt and keeps it) and its own Object Lock retention, so the object
 * cannot be deleted or overwritten before `retainUntil` even if the bucket's default changed. No rules
 * here: bytes in, put or refused.
 */
import {
  HeadObjectCommand,
  type ObjectLockMode,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { ARCHIVE_MISMATCH, type ArchiveObject, type ArchivePut, type AuditArchive } from '@pyb/core';
import { ArchiveError, sha256 } from './digest';

export type LockMode = 'COMPLIANCE' | 'GOVERNANCE';

export interface S3AuditArchiveOptions {
  bucket: string;
  /** COMPLIANCE: nobody, root included, can shorten or remove the lock. GOVERNANCE: a privileged role can. */
  lockMode: LockMode;
  client?: S3Client;
  region?: string;
}

/** S3's answers to `If-None-Match: *` when the key is taken (412) or being written concurrently (409). */
const TAKEN = new Set(['PreconditionFailed']);

export class S3AuditArchive implements AuditArchive {
  private readonly client: S3Client;

  constructor(private readonly options: S3AuditArchiveOptions) {
    this.client = options.client ?? new S3Client(options.region ? { region: options.region } : {});
  }

  async putOnce(object: ArchiveObject): Promise<ArchivePut> {
    const digest = sha256(object.body);
    const checksum = digest.toString('base64');
    const hex = digest.toString('hex');
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.options.bucket,
          Key: object.key,
          Body: object.body,
          ContentType: object.contentType,
          IfNoneMatch: '*',
          ChecksumSHA256: checksum,
          ObjectLockMode: this.options.lockMode as ObjectLockMode,
          ObjectLockRetainUntilDate: object.retainUntil,
          Metadata: { ...object.metadata, sha256: hex },
        }),
      );
      return { status: 'CREATED', sha256: hex };
    } catch (error) {
      if (!(error instanceof S3ServiceException) || !TAKEN.has(error.name)) throw error;
    }
    // The key is taken: a retry or a duplicate event if the stored bytes are these bytes.
    const head = await this.client.send(
      new HeadObjectCommand({ Bucket: this.options.bucket, Key: object.key, ChecksumMode: 'ENABLED' }),
    );
    if (head.ChecksumSHA256 === checksum) return { status: 'EXISTS', sha256: hex };
    throw new ArchiveError(
      ARCHIVE_MISMATCH,
      `${object.key} is already archived with other content (stored sha256 ${head.ChecksumSHA256 ?? 'unknown'}, ` +
        `now ${checksum}): the shoe's stored data changed after it was archived`,
    );
  }

  async stored(key: string): Promise<{ sha256: string } | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.options.bucket, Key: key, ChecksumMode: 'ENABLED' }),
      );
      const checksum = head.ChecksumSHA256 ?? '';
      return { sha256: Buffer.from(checksum, 'base64').toString('hex') };
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
      throw error;
    }
  }
}
