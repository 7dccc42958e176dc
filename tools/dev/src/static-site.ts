/**
 * The built web app (web/dist) served by the local server beside the API, as CloudFront serves it in a
 * deployment: the same path rule (web/site.ts `siteFile`), the same security headers, long caching for
 * hashed assets only. API routes keep precedence: the local server asks here only for a GET or HEAD
 * that no route matched and that is not under /v1.
 */
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { SECURITY_HEADERS, siteFile } from '@pyb/web/site';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** True for a path the site may answer: not the API's. */
export const isSitePath = (pathname: string): boolean => pathname !== '/v1' && !pathname.startsWith('/v1/');

/** The file under `root` that `pathname` names, or undefined (outside the root, or no such file). */
export async function resolveSiteFile(root: string, pathname: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const rel = normalize(siteFile(decoded));
  if (rel.startsWith('..') || rel.split(sep).includes('..')) return undefined;
  const file = join(root, rel);
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  try {
    return (await stat(file)).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Answers a GET or HEAD from `root`; false when there is no such file (the caller answers 404). */
export async function serveSiteFile(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<boolean> {
  const file = await resolveSiteFile(root, pathname);
  if (!file) return false;
  const body = await readFile(file);
  const hashed = pathname.startsWith('/assets/');
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(body.length),
    'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
