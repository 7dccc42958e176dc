/**
 * The feed's files in a local folder (dev and tests), behind the same port as S3: a file is written
 * to a temporary name as its chunks come and renamed into place when complete (a failed write leaves
 * nothing at its key), with its content type beside it. No versions, no retention: never production.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { finished } from 'node:stream/promises';
import type { FeedFile, FeedFileInfo, FeedFiles, FeedFileWritten } from '@pyb/core';

const META = '.meta.json';
const TEMP = '.partial-';

export class LocalFeedFiles implements FeedFiles {
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  /** The file a key is stored in (nothing may escape the folder). */
  path(key: string): string {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new RangeError(`feed key outside the folder: ${key}`);
    return path;
  }

  async write(key: string, contentType: string, chunks: AsyncIterable<Uint8Array>): Promise<FeedFileWritten> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}${TEMP}${randomBytes(6).toString('hex')}`;
    const out = createWriteStream(temp, { flags: 'wx' });
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      for await (const chunk of chunks) {
        hash.update(chunk);
        bytes += chunk.length;
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
      out.end();
      await finished(out);
      await writeFile(`${path}${META}`, `${JSON.stringify({ contentType })}\n`);
      await rename(temp, path);
    } catch (error) {
      // The stream opens its file asynchronously: remove the temporary file once it is closed.
      out.destroy();
      await finished(out).catch(() => {});
      await unlink(temp).catch(() => {});
      throw error;
    }
    return { key, bytes, sha256: hash.digest('hex') };
  }

  async list(prefix: string): Promise<FeedFileInfo[]> {
    // Keys are paths: the folder of the prefix holds its files.
    const dir = prefix.endsWith('/') ? this.path(prefix.slice(0, -1)) : dirname(this.path(prefix));
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const out: FeedFileInfo[] = [];
    for (const name of names.sort()) {
      if (name.endsWith(META) || name.includes(TEMP)) continue;
      const key = `${prefix.slice(0, prefix.lastIndexOf('/') + 1)}${name}`;
      if (!key.startsWith(prefix)) continue;
      const info = await stat(join(dir, name));
      if (!info.isFile()) continue;
      out.push({ key, bytes: info.size, modifiedAt: info.mtime.toISOString() });
    }
    return out;
  }

  async read(key: string, maxBytes: number): Promise<FeedFile | undefined> {
    const path = this.path(key);
    let bytes: number;
    try {
      bytes = (await stat(path)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const { contentType } = JSON.parse(await readFile(`${path}${META}`, 'utf8')) as { contentType: string };
    if (bytes > maxBytes) return { contentType, bytes };
    return { contentType, bytes, body: new Uint8Array(await readFile(path)) };
  }
}
