import { randomBytes } from 'node:crypto';
import { linkSync, unlinkSync, writeFileSync } from 'node:fs';

/**
 * Writes `data` to `path` (mode 0600) unless it exists; atomic, so processes starting at once agree
 * on one key file. For the local stand-ins' secrets (signing and sealing keys, the local beacon's key).
 */
export function createOnce(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  try {
    linkSync(tmp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(tmp);
  }
}
