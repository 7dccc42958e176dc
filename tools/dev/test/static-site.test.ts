/**
 * The local server's static files (tools/dev/src/static-site.ts) over real HTTP: pages by the site's
 * path rule, its security headers, API routes first, nothing outside the folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECURITY_HEADERS } from '@pyb/web/site';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../src/local-server';
import { isSitePath, resolveSiteFile } from '../src/static-site';

let root: string;
let outside: string;
let server: LocalServer;

beforeAll(async () => {
  const base = mkdtempSync(join(tmpdir(), 'pyb-static-'));
  root = join(base, 'dist');
  outside = join(base, 'secret.txt');
  mkdirSync(join(root, 'verify'), { recursive: true });
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>table</title>');
  writeFileSync(join(root, 'verify', 'index.html'), '<!doctype html><title>verify</title>');
  writeFileSync(join(root, 'assets', 'app-1234.js'), 'export {};');
  writeFileSync(outside, 'not for the web');
  // No AppContext: only requests that reach a handler would need one, and these never do.
  server = await startLocalServer({ port: 0, siteDir: root });
});
afterAll(async () => {
  await server?.close();
  rmSync(join(root, '..'), { recursive: true, force: true });
});

/** A raw request (fetch would normalise `..` away before it is sent). */
function raw(
  method: string,
  path: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the web app beside the API', () => {
  it('serves pages by their folder, with the security headers CloudFront sends', async () => {
    for (const [path, title] of [
      ['/', 'table'],
      ['/verify', 'verify'],
      ['/verify/', 'verify'],
      ['/verify?shoe=shoe_1', 'verify'],
    ] as const) {
      const answer = await raw('GET', path);
      expect(answer.status, path).toBe(200);
      expect(answer.body, path).toContain(`<title>${title}</title>`);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-cache');
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        expect(answer.headers[name.toLowerCase()], name).toBe(value);
      }
    }
  });

  it('caches hashed assets for good and answers HEAD without a body', async () => {
    const js = await raw('GET', '/assets/app-1234.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const head = await raw('HEAD', '/assets/app-1234.js');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('leaves /v1 to the API: an unknown API path is the API’s problem+json, never a page', async () => {
    const answer = await raw('GET', '/v1/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(answer.body).code).toBe('ROUTE_NOT_FOUND');
    expect(isSitePath('/v1')).toBe(false);
    expect(isSitePath('/v1/tables')).toBe(false);
    expect(isSitePath('/v1x')).toBe(true);
  });

  it('answers 404 for a missing page, and nothing outside its folder', async () => {
    expect((await raw('GET', '/regulator')).status).toBe(404);
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/%00']) {
      const answer = await raw('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain('not for the web');
    }
    expect(await resolveSiteFile(root, '/../secret.txt')).toBeUndefined();
    expect(await resolveSiteFile(root, '/%2e%2e/secret.txt')).toBeUndefined();
  });

  it('takes no POST on a page path', async () => {
    const answer = await raw('POST', '/verify');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toContain('application/problem+json');
  });
});
