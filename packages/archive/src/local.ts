/**
 * The audit archive in a local folder (dev and tests): the same write-once contract as S3 with
 * `If-None-Match: *` — a file is created exclusively and never replaced — and read-only files. It has no
 * Object Lock: `retainUntil` is recorded beside the bundle, not enforced. Never for production.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { ARCHIVE_MISMATCH, type ArchiveObject, type ArchivePut, type AuditArchive } from '@pyb/core';
import { ArchiveError, sha256 } from './digest';

export class LocalAuditArchive implements AuditArchive {
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  /** The file a key is stored in (keys are paths; nothing may escape the folder). */
  path(key: string): string {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new RangeError(`archive key outside the archive: ${key}`);
    return path;
  }

  async putOnce(object: ArchiveObject): Promise<ArchivePut> {
    const hex = sha256(object.body).toString('hex');
    const path = this.path(object.key);
    await mkdir(dirname(path), { recursive: true });
    try {
      await writeFile(path, object.body, { flag: 'wx', mode: 0o444 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const stored = sha256(await readFile(path)).toString('hex');
      if (stored === hex) return { status: 'EXISTS', sha256: hex };
      throw new ArchiveError(
        ARCHIVE_MISMATCH,
        `${object.key} is already archived with other content (stored sha256 ${stored}, now ${hex})`,
      );
    }
    const meta = {
      sha256: hex,
      contentType: object.contentType,
      retainUntil: object.retainUntil.toISOString(),
      metadata: object.metadata,
    };
    await writeFile(`${path}.meta.json`, `${JSON.stringify(meta, null, 2)}\n`, { mode: 0o444 });
    return { status: 'CREATED', sha256: hex };
  }

  async stored(key: string): Promise<{ sha256: string } | undefined> {
    try {
      return { sha256: sha256(await readFile(this.path(key))).toString('hex') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
