/**
 * An RFC 3161 HTTP endpoint (§3.4) on node:http for a local TSA, so the local stack runs a real TSA
 * endpoint: POST application/timestamp-query → 200 application/timestamp-reply. Dev and tests only.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QUERY_TYPE, REPLY_TYPE } from './http-client';

export interface Responder {
  respond(request: Uint8Array): Promise<Uint8Array>;
}

export interface TimeStampServerOptions {
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** A request larger than this is 413. Default 16 KiB (a request is about 60 bytes). */
  maxBytes?: number;
  /** Sees each request as it came (tests check what a client sends). */
  onRequest?: (request: {
    method: string;
    path: string;
    contentType: string | undefined;
    body: Uint8Array;
  }) => void;
}

export interface TimeStampServer {
  readonly url: string;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage, maxBytes: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Uint8Array).length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk as Uint8Array);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

export async function startTimeStampServer(
  tsa: Responder,
  options: TimeStampServerOptions = {},
): Promise<TimeStampServer> {
  const maxBytes = options.maxBytes ?? 16_384;
  const server = createServer((request, response) => {
    const answer = (status: number, type: string, body: Uint8Array | string) => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    void (async () => {
      const contentType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      const body = await readBody(request, maxBytes);
      if (!body) return answer(413, 'text/plain', `a time-stamp request is at most ${maxBytes} bytes\n`);
      options.onRequest?.({ method: request.method ?? '', path: request.url ?? '', contentType, body });
      if (request.method !== 'POST') return answer(405, 'text/plain', `POST ${QUERY_TYPE}\n`);
      if (contentType !== QUERY_TYPE)
        return answer(415, 'text/plain', `content-type must be ${QUERY_TYPE}\n`);
      // A malformed request is answered inside RFC 3161 (a rejection), as §2.4.2 wants.
      answer(200, REPLY_TYPE, await tsa.respond(body));
    })().catch(() => {
      if (!response.headersSent) answer(500, 'text/plain', 'time-stamp authority failure\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
