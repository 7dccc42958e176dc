/**
 * Write-once storage for the audit bundles of closed shoes, each kept unchangeable for the retention
 * period (docs/deploy.md, *Retention*): an S3 bucket with Object Lock on AWS, a folder locally.
 */
export interface ArchiveObject {
  /** Where it goes: `shoes/<operatorId>/<shoeId>.json`. */
  key: string;
  body: Uint8Array;
  contentType: string;
  /** It may not be deleted or overwritten before this instant. */
  retainUntil: Date;
  /** Small searchable labels (operator, table, shoe, format). */
  metadata: Record<string, string>;
}

export interface ArchivePut {
  /** `CREATED`: stored now. `EXISTS`: the same bytes were already stored (a retry, a duplicate event). */
  status: 'CREATED' | 'EXISTS';
  /** Hex SHA-256 of the body, as the storage checked it. */
  sha256: string;
}

export interface AuditArchive {
  /**
   * Stores `object` unless its key already holds an object. An existing object with other bytes
   * rejects with `code` ARCHIVE_MISMATCH: a closed shoe's bundle changed after it was archived.
   */
  putOnce(object: ArchiveObject): Promise<ArchivePut>;
  /** What `key` holds, by its SHA-256 (hex) as the storage keeps it; undefined when nothing is there. */
  stored(key: string): Promise<{ sha256: string } | undefined>;
}

/** The `code` of putOnce's rejection when the key already holds different bytes. */
export const ARCHIVE_MISMATCH = 'ARCHIVE_MISMATCH';
