/**
 * Where the regulator feed's files go (docs/regulators.md, "Regulator data feed"): an S3 bucket on AWS
 * (versioned, encrypted, Object Lock for the retention period: infra/src/feed.ts), a folder locally.
 * Keys are `feed/<operatorId>/<YYYY-MM-DD>/<name>` (feedFileKey). No rules here: bytes in, bytes out.
 */
export interface FeedFileInfo {
  /** The file's key. */
  key: string;
  bytes: number;
  /** When it was (last) written. */
  modifiedAt: string;
}

export interface FeedFileWritten {
  key: string;
  bytes: number;
  /** Hex SHA-256 of the content, as written (the job logs it). */
  sha256: string;
}

export interface FeedFile {
  contentType: string;
  bytes: number;
  /** The content; absent when the file is larger than the reader's `maxBytes` (it is not read then). */
  body?: Uint8Array;
}

export interface FeedFiles {
  /**
   * Writes the file at `key` from `chunks` as they come — never the whole file in memory — and
   * replaces what was there (on S3 as a new version; the old one stays under the bucket's retention).
   * A failed write leaves no partial file at `key`.
   */
  write(key: string, contentType: string, chunks: AsyncIterable<Uint8Array>): Promise<FeedFileWritten>;
  /** The files whose key starts with `prefix`, by key. */
  list(prefix: string): Promise<FeedFileInfo[]>;
  /** A file's content (up to `maxBytes`), or undefined when there is none at `key`. */
  read(key: string, maxBytes: number): Promise<FeedFile | undefined>;
}
