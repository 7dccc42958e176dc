import { createHash } from 'node:crypto';

export const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

/** An error with a stable `code`, as the port documents (ARCHIVE_MISMATCH). */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
