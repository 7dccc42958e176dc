/**
 * The local HTTP server (dev and end-to-end tests): each request becomes an API Gateway v2 (HTTP API,
 * payload 2.0) event, is routed with ROUTES, and is handed to the very handler the Lambda runs — no
 * second implementation of any endpoint. It also does what API Gateway does before a Lambda sees a
 * request: 404 for an unknown route and a hard cap on the body (10 MB). Given a `siteDir` (web/dist), it
 * also serves the web app beside /v1, as CloudFront does in a deployment (static-site.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { type AppContext, setAppContext } from '@pyb/functions/context';
import type { HttpEvent, HttpResult } from '@pyb/functions/http';
import { HttpProblem, problemResponse } from '@pyb/functions/problem';
import { ROUTES, type Route } from '@pyb/functions/routes';
import type { Context } from 'aws-lambda';
import { isSitePath, serveSiteFile } from './static-site';

type LambdaHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

const GATEWAY_MAX_BODY = 10 * 1024 * 1024;
const GATEWAY_TIMEOUT_MS = 29_000;

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

const compiled: CompiledRoute[] = ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{(\w+)\\?\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
  return { route, pattern: new RegExp(`^${source}$`), names };
});

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

/** The route for a method and path; `undefined` when no path matches, `'METHOD'` when only the method is wrong. */
export function matchRoute(method: string, path: string): RouteMatch | 'METHOD' | undefined {
  let pathMatched = false;
  for (const { route, pattern, names } of compiled) {
    const match = pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    const pathParameters: Record<string, string> = {};
    try {
      names.forEach((name, i) => {
        pathParameters[name] = decodeURIComponent(match[i + 1] ?? '');
      });
    } catch {
      return undefined;
    }
    return { route, pathParameters };
  }
  return pathMatched ? 'METHOD' : undefined;
}

const handlers = new Map<string, Promise<LambdaHandler>>();

/** The handler module of a route, imported once (the same file the CDK app bundles). */
export function loadHandler(name: string): Promise<LambdaHandler> {
  let loaded = handlers.get(name);
  if (!loaded) {
    loaded = import(`@pyb/functions/handlers/${name}`).then((module: { handler?: LambdaHandler }) => {
      if (typeof module.handler !== 'function')
        throw new Error(`functions/${name}/handler.ts exports no handler`);
      return module.handler;
    });
    handlers.set(name, loaded);
  }
  return loaded;
}

function readBody(req: IncomingMessage): Promise<Buffer | 'TOO_LARGE'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > GATEWAY_MAX_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'TOO_LARGE' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const TEXTUAL = /^(application\/([\w.+-]*\+)?json|text\/|application\/x-www-form-urlencoded)/i;

/** An API Gateway v2 event, as HTTP APIs build it (headers lowercased, repeated ones comma-joined). */
export function toEvent(req: IncomingMessage, body: Buffer, match: RouteMatch, url: URL): HttpEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams)
    query[name] = name in query ? `${query[name]},${value}` : value;
  const now = new Date();
  const requestId = randomUUID();
  const routeKey = `${match.route.method} ${match.route.path}`;
  const textual = TEXTUAL.test(headers['content-type'] ?? '');
  const event: HttpEvent = {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: match.route.method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: body.length > 0 && !textual,
  };
  if (req.headers.cookie) event.cookies = req.headers.cookie.split(/;\s*/);
  if (Object.keys(query).length > 0) event.queryStringParameters = query;
  if (Object.keys(match.pathParameters).length > 0) event.pathParameters = match.pathParameters;
  if (body.length > 0) event.body = textual ? body.toString('utf8') : body.toString('base64');
  return event;
}

function lambdaContext(route: Route, requestId: string): Context {
  const deadline = Date.now() + GATEWAY_TIMEOUT_MS;
  const functionName = `pyb-local-${route.handler}`;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(res: ServerResponse, result: HttpResult): void {
  const body = result.isBase64Encoded
    ? Buffer.from(result.body, 'base64')
    : Buffer.from(result.body ?? '', 'utf8');
  res.writeHead(result.statusCode, { ...result.headers, 'Content-Length': String(body.length) });
  if (result.cookies?.length) res.setHeader('Set-Cookie', result.cookies);
  res.end(body);
}

function sendProblem(res: ServerResponse, problem: HttpProblem, path: string): void {
  const requestId = randomUUID();
  const response = problemResponse(problem, requestId, path);
  send(res, { ...response, headers: { ...response.headers, 'X-Request-Id': requestId } });
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  siteDir?: string,
  devPages?: Record<string, DevPage>,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const devPage = req.method === 'GET' ? devPages?.[url.pathname] : undefined;
  if (devPage) return devPage(url, res);
  const match = matchRoute(req.method ?? 'GET', url.pathname);
  if (match === undefined) {
    const page = req.method === 'GET' || req.method === 'HEAD';
    if (
      siteDir &&
      page &&
      isSitePath(url.pathname) &&
      (await serveSiteFile(siteDir, req, res, url.pathname))
    ) {
      return;
    }
    return sendProblem(
      res,
      new HttpProblem(404, 'ROUTE_NOT_FOUND', `no endpoint at ${url.pathname}`),
      url.pathname,
    );
  }
  if (match === 'METHOD') {
    return sendProblem(
      res,
      new HttpProblem(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${url.pathname}`),
      url.pathname,
    );
  }
  const body = await readBody(req);
  if (body === 'TOO_LARGE') {
    return sendProblem(
      res,
      new HttpProblem(413, 'PAYLOAD_TOO_LARGE', 'body larger than 10 MB'),
      url.pathname,
    );
  }
  const event = toEvent(req, body, match, url);
  const handler = await loadHandler(match.route.handler);
  send(res, await handler(event, lambdaContext(match.route, event.requestContext.requestId)));
}

export interface LocalServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

export interface LocalServerOptions {
  port?: number;
  host?: string;
  /** Adapters to use instead of those built from the environment (tests). */
  context?: AppContext;
  /** The built web app (web/dist) to serve beside the API; API routes keep precedence. */
  siteDir?: string;
  /**
   * WebSocket upgrades by path, answered on this origin as CloudFront forwards them in a deployment
   * (`/live`: the live broker, so a page's `connect-src 'self'` reaches it). Any other upgrade is refused.
   */
  upgrades?: Record<string, UpgradeHandler>;
  /** GET pages of the dev stack alone, by path (./scripts/dev's lobby: dev.ts); never an API route. */
  devPages?: Record<string, DevPage>;
}

export type DevPage = (url: URL, res: ServerResponse) => Promise<void>;

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  if (options.context) setAppContext(options.context);
  const siteDir = options.siteDir === undefined ? undefined : resolve(options.siteDir);
  const server = createServer((req, res) => {
    handle(req, res, siteDir, options.devPages).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) {
        sendProblem(res, new HttpProblem(500, 'INTERNAL_ERROR', 'the local server failed'), req.url ?? '/');
      } else res.destroy();
    });
  });
  // Idle keep-alive sockets stay open longer than any client keeps them (undici: 4 s), so a client
  // never sends on a socket the server is closing (an ECONNRESET under load otherwise).
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const upgrade = options.upgrades?.[new URL(req.url ?? '/', 'http://localhost').pathname];
    if (upgrade) upgrade(req, socket, head);
    else socket.destroy();
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
