/**
 * Picks the archive adapter from the environment, like @pyb/keys does for keys:
 *   ARCHIVE_BUCKET set -> S3AuditArchive on it, lock mode ARCHIVE_LOCK_MODE (COMPLIANCE or GOVERNANCE)
 *   otherwise          -> LocalAuditArchive in ARCHIVE_DIR (default .data/archive); refused in production
 * and the retention period from RETENTION_DAYS.
 */
import type { AuditArchive } from '@pyb/core';
import { LocalAuditArchive } from './local';
import { type LockMode, S3AuditArchive } from './s3';

export interface ArchiveConfig {
  archive: AuditArchive;
  retentionDays: number;
  description: string;
}

export function archiveFromEnv(env: Record<string, string | undefined> = process.env): ArchiveConfig {
  const retentionDays = Number(env.RETENTION_DAYS);
  if (!Number.isSafeInteger(retentionDays) || retentionDays < 1) {
    throw new Error(`RETENTION_DAYS must be a positive whole number of days, got '${env.RETENTION_DAYS}'`);
  }
  const bucket = env.ARCHIVE_BUCKET;
  if (bucket) {
    const lockMode = env.ARCHIVE_LOCK_MODE ?? 'COMPLIANCE';
    if (lockMode !== 'COMPLIANCE' && lockMode !== 'GOVERNANCE') {
      throw new Error(`ARCHIVE_LOCK_MODE must be COMPLIANCE or GOVERNANCE, got '${lockMode}'`);
    }
    return {
      archive: new S3AuditArchive({
        bucket,
        lockMode: lockMode as LockMode,
        ...(env.AWS_REGION && { region: env.AWS_REGION }),
      }),
      retentionDays,
      description: `s3://${bucket} (Object Lock ${lockMode})`,
    };
  }
  // A Lambda bundle holds no local folder adapter (infra/src/esbuild-options.ts, LAMBDA_BUNDLE_DEFINE).
  if (
    process.env.PYB_LAMBDA_BUNDLE === '1' ||
    env.NODE_ENV === 'production' ||
    env.AWS_LAMBDA_FUNCTION_NAME
  ) {
    throw new Error('the local audit archive is for development only: set ARCHIVE_BUCKET in production');
  } else {
    const dir = env.ARCHIVE_DIR ?? '.data/archive';
    return { archive: new LocalAuditArchive(dir), retentionDays, description: `local folder ${dir}` };
  }
}
