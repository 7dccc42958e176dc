import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddlewareObj, type Request } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { acceptsEmptyBody, type EndpointContract } from '@pyb/contracts';
import {
  type Actor,
  authenticate,
  authorize,
  bearerCredential,
  checkIdempotencyKey,
  DomainError,
  looksLikePlayerToken,
  type StoredResponse,
} from '@pyb/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import { type AppContext, appContext, startWithDeadline } from './context';
import { invocationDeadline } from './deadline';
import { IDEMPOTENCY_LOCK_MS, requestFingerprint, runIdempotent } from './idempotency';
import { logger } from './logger';
import { flushMetrics, recordLatency } from './metrics';
import {
  classify,
  deadlineProblem,
  HttpProblem,
  type ProblemResponse,
  problemResponse,
  validationProblem,
} from './problem';
import type { Route } from './routes';

/**
 * The one handler factory. Every endpoint is `httpHandler(route, contract, run)` with its own route
 * (routes.ts, `<handler>Route`) and its own contract (@pyb/contracts, `<handler>Contract`) — never a
 * table of them all, which would put every endpoint's schemas and grants in each bundle: this file does the
 * HTTP part once — correlation id and structured logs, header normalisation, API-key auth and the
 * route's roles, body size limit, JSON parsing, zod validation of path/query/body and of the
 * response, `Idempotency-Key` on POSTs, problem+json errors — and `run` calls one use case. A route
 * whose contract names `media` answers its text as it is (NDJSON, CSV: mediaResponse).
 */
export const MAX_BODY_BYTES = 16 * 1024;

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};

type Out<T> = T extends () => z.ZodType ? z.output<ReturnType<T>> : Record<string, never>;
type Part<C, K extends string> = C extends { [P in K]: infer S } ? Out<S> : Record<string, never>;

export interface HandlerInput<C extends EndpointContract> {
  /** The caller (throws on a public route: there is none). */
  actor: Actor;
  params: Part<C, 'params'>;
  query: Part<C, 'query'>;
  body: Part<C, 'body'>;
  /** The client's Idempotency-Key (POSTs; '' on GETs). Money-moving use cases key their writes on it. */
  idempotencyKey: string;
  requestId: string;
  context: AppContext;
}

/** A media route's answer (its contract names `media`): the text and its content type. */
export interface MediaAnswer {
  contentType: string;
  body: string;
}

type Answer<C extends EndpointContract> = C extends { media: readonly string[] }
  ? MediaAnswer
  : z.input<ReturnType<C['response']>>;

export type Run<C extends EndpointContract> = (input: HandlerInput<C>) => Promise<Answer<C>>;

interface RequestState {
  requestId: string;
  startedAt: number;
  actor?: Actor;
}

type HttpRequest = Request<HttpEvent, HttpResult, Error, Context>;
type Middleware = MiddlewareObj<HttpEvent, HttpResult, Error, Context>;

/** Per-request state, keyed by the event object middy hands to every middleware and the handler. */
const states = new WeakMap<HttpEvent, RequestState>();

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** x-request-id / x-correlation-id from the caller if well formed, else API Gateway's request id. */
function requestIdOf(event: HttpEvent): string {
  const header = event.headers?.['x-request-id'] ?? event.headers?.['x-correlation-id'];
  if (header !== undefined && REQUEST_ID.test(header)) return header;
  return event.requestContext?.requestId ?? crypto.randomUUID();
}

const stateOf = (event: HttpEvent): RequestState => {
  const state = states.get(event);
  if (!state) throw new Error('request state missing (middleware order)');
  return state;
};

function correlation(): Middleware {
  return {
    before: (request) => {
      const requestId = requestIdOf(request.event);
      states.set(request.event, { requestId, startedAt: Date.now() });
      logger.setCorrelationId(requestId);
    },
  };
}

/**
 * An API key (looked up by its hash) or, on the routes that admit them (routes.ts `players`), a player
 * access token (a JWT: verified, then its session and the player's revocation read). A player token on
 * any other route is refused unread (those functions hold no grant on the token key).
 */
function authentication(route: Route): Middleware {
  return {
    before: async (request) => {
      if (route.roles.length === 0 && !route.players) return;
      const authorization = request.event.headers?.authorization;
      let actor: Actor;
      if (looksLikePlayerToken(bearerCredential(authorization))) {
        if (!route.players) {
          authorize({ operatorId: '', role: 'player', supervises: [] }, route.roles);
        }
        // Loaded on a player token's first request: the API-key routes' bundles never parse it.
        const { playerActor } = await import('./sessions');
        actor = await playerActor(appContext(), bearerCredential(authorization));
      } else {
        actor = await authenticate(appContext().principals, authorization);
        authorize(actor, route.roles);
      }
      stateOf(request.event).actor = actor;
    },
  };
}

/**
 * A player token's request acts for its own player: a path or body naming another is refused here,
 * before any use case (which checks it again: tenancy.ts `actsFor`). The player is the token's.
 */
function checkPlayer(route: Route, actor: Actor | undefined, event: HttpEvent, body: unknown): void {
  const player = actor?.player;
  if (!player || !route.players?.playerIn) return;
  const named =
    route.players.playerIn === 'path'
      ? event.pathParameters?.playerId
      : body !== null && typeof body === 'object'
        ? (body as { playerId?: unknown }).playerId
        : undefined;
  if (named !== undefined && named !== player.playerId) {
    throw new DomainError('FORBIDDEN', 'PLAYER_NOT_ALLOWED', 'a player token acts for its own player only', {
      playerId: named,
    });
  }
}

/**
 * Whether a Content-Type announces JSON this API reads: `application/json` or `application/<x>+json`
 * (media types are case-insensitive, RFC 9110 §8.3.1), with no charset or UTF-8 (RFC 8259 §8.1: JSON
 * exchanged between systems is UTF-8; a body announced in another charset would be misread).
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [type = '', ...parameters] = contentType.split(';');
  if (!/^application\/([a-z0-9!#$&^_.-]+\+)?json$/.test(type.trim().toLowerCase())) return false;
  return parameters.every((parameter) => {
    const [name = '', value = ''] = parameter.split('=', 2).map((x) => x.trim().toLowerCase());
    return name !== 'charset' || ['utf-8', 'utf8', '"utf-8"', '"utf8"'].includes(value);
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Size limit, content type and JSON parsing for bodies that are there (POSTs may send none). */
function jsonBody(route: Route): Middleware {
  return {
    before: (request) => {
      const { event } = request;
      if (route.method !== 'POST' || event.body === undefined || event.body === null || event.body === '') {
        (event as { body?: unknown }).body = undefined;
        return;
      }
      const bytes = event.isBase64Encoded ? Math.floor((event.body.length * 3) / 4) : byteLength(event.body);
      if (bytes > MAX_BODY_BYTES) {
        throw new HttpProblem(413, 'PAYLOAD_TOO_LARGE', `bodies are limited to ${MAX_BODY_BYTES} bytes`);
      }
      if (!isJsonMediaType(event.headers?.['content-type'])) {
        throw new HttpProblem(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'send the body as Content-Type: application/json (UTF-8)',
        );
      }
      try {
        const text = event.isBase64Encoded ? utf8.decode(Buffer.from(event.body, 'base64')) : event.body;
        (event as { body?: unknown }).body = JSON.parse(text);
      } catch {
        throw new HttpProblem(400, 'MALFORMED_JSON', 'the body is not valid JSON (UTF-8)');
      }
    },
  };
}

const byteLength = (text: string): number => new TextEncoder().encode(text).length;

function parsePart<T extends (() => z.ZodType) | undefined>(
  schema: T,
  value: unknown,
  where: 'path' | 'query' | 'body',
): Out<T> {
  if (schema === undefined) return {} as Out<T>;
  const result = schema().safeParse(value);
  if (!result.success) throw validationProblem(result.error, where);
  return result.data as Out<T>;
}

/** An answer: JSON unless `extra` names another Content-Type (problem+json, a media route). */
function httpResult(
  status: number,
  body: string,
  requestId: string,
  extra: Record<string, string> = {},
): HttpResult {
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/json', 'X-Request-Id': requestId, ...extra },
    body,
  };
}

/**
 * The answer of a route whose success is not JSON (`media` in its contract: NDJSON, CSV): the use case
 * returns `{ contentType, body }` and the text goes out as it is, under a content type the contract
 * names. Errors are still problem+json (they never reach here).
 */
function mediaResponse(
  name: string,
  media: readonly string[],
  status: number,
  output: unknown,
): StoredResponse {
  const { contentType, body } = (output ?? {}) as { contentType?: unknown; body?: unknown };
  const type = typeof contentType === 'string' ? contentType.split(';')[0]!.trim().toLowerCase() : '';
  if (typeof body !== 'string' || !media.includes(type)) {
    logger.error('response does not match its contract', { handler: name, contentType, media });
    throw new HttpProblem(
      500,
      'INTERNAL_ERROR',
      'something went wrong on our side; the request id identifies it',
    );
  }
  return { status, body, headers: { 'Content-Type': contentType as string } };
}

function withRequestId(problem: ProblemResponse, requestId: string): HttpResult {
  return { ...problem, headers: { ...problem.headers, 'X-Request-Id': requestId } };
}

function accessLog(request: HttpRequest, route: Route, status: number, error?: unknown): void {
  const state = states.get(request.event);
  const entry = {
    requestId: state?.requestId,
    method: route.method,
    route: route.path,
    path: request.event.rawPath,
    status,
    operatorId: state?.actor?.operatorId,
    role: state?.actor?.role,
    ms: state ? Date.now() - state.startedAt : undefined,
  };
  if (status >= 500) logger.error('request failed', { ...entry, error: error as Error });
  else logger.info('request', entry);
  if (entry.ms !== undefined) recordLatency(route.handler, entry.ms);
  flushMetrics();
}

function problems(route: Route): Middleware {
  return {
    onError: (request) => {
      const requestId = states.get(request.event)?.requestId ?? requestIdOf(request.event);
      const problem = classify(request.error);
      request.response = withRequestId(
        problemResponse(problem, requestId, request.event.rawPath ?? route.path),
        requestId,
      );
      accessLog(request, route, problem.status, request.error);
    },
  };
}

/**
 * The Lambda handler of one endpoint. It keeps its route and contract (`handler.route`,
 * `handler.contract`): functions/test/handlers.test.ts checks that each function's are the ones
 * routes.ts and the contracts' registry name for it.
 */
export function httpHandler<C extends EndpointContract>(route: Route, contract: C, run: Run<C>) {
  const name = route.handler;
  // Built on the first request, like the contract's schemas (nothing is built when the bundle loads).
  let emptyBodyOk: boolean | undefined;

  const core = async (
    event: HttpEvent,
    lambda: Context,
    options?: { signal?: AbortSignal },
  ): Promise<HttpResult> => {
    // The use case's time: it stops retrying before it, and its writes stop when it is up (then the
    // answer is 503 DEADLINE_EXCEEDED, given here rather than by middy's timeout, so the key is released).
    const deadline = invocationDeadline(lambda, options?.signal);
    try {
      return await answer(event, deadline);
    } finally {
      // Answered: whatever of the use case still runs (it lost the race with the deadline) writes nothing.
      deadline.end();
    }
  };

  const answer = async (
    event: HttpEvent,
    deadline: ReturnType<typeof invocationDeadline>,
  ): Promise<HttpResult> => {
    const state = stateOf(event);
    const context = appContext();
    const params = parsePart(contract.params, event.pathParameters ?? {}, 'path');
    const query = parsePart(contract.query, event.queryStringParameters ?? {}, 'query');
    emptyBodyOk ??= acceptsEmptyBody(contract.body);
    // Only an absent body stands for `{}`: a JSON `null` is a body, and the contract's schema refuses
    // it (`??` would have read it as no body and run a body-less POST such as resolve).
    const rawBody: unknown = event.body === undefined ? (emptyBodyOk ? {} : undefined) : event.body;
    checkPlayer(route, state.actor, event, rawBody);
    // A single-use route's credential is its own once-only key (routes.ts `singleUse`).
    const idempotencyKey =
      route.method === 'POST' && !route.singleUse
        ? checkIdempotencyKey(event.headers?.['idempotency-key'])
        : '';
    const body =
      route.method === 'POST' ? parsePart(contract.body, rawBody === undefined ? {} : rawBody, 'body') : {};
    const input = {
      get actor(): Actor {
        if (!state.actor) throw new Error(`${name} is public: there is no actor`);
        return state.actor;
      },
      params,
      query,
      body,
      idempotencyKey,
      requestId: state.requestId,
      context,
    } as HandlerInput<C>;

    // Routes idempotent by their use case (routes.ts ownIdempotency) say whether it replayed.
    let replayedByUseCase = false;
    const execute = async (): Promise<StoredResponse> => {
      try {
        const work = startWithDeadline(deadline, () => run(input));
        // If the deadline wins, the work's later failure (its writes refused) is no one's answer.
        work.catch(() => undefined);
        const output = await Promise.race([work, deadline.expired]);
        if (contract.media) return mediaResponse(name, contract.media, contract.status, output);
        replayedByUseCase = (output as { replayed?: unknown }).replayed === true;
        const result = contract.response().safeParse(output);
        if (!result.success) {
          logger.error('response does not match its contract', {
            handler: name,
            issues: result.error.issues,
          });
          throw new HttpProblem(
            500,
            'INTERNAL_ERROR',
            'something went wrong on our side; the request id identifies it',
          );
        }
        return { status: contract.status, body: JSON.stringify(result.data) };
      } catch (error) {
        const problem = problemResponse(classify(error), state.requestId, event.rawPath ?? route.path);
        if (problem.statusCode >= 500)
          logger.error('use case failed', { handler: name, error: error as Error });
        return { status: problem.statusCode, body: problem.body, headers: problem.headers };
      }
    };

    if (route.method === 'GET' || route.ownIdempotency || route.singleUse) {
      const response = await execute();
      return httpResult(response.status, response.body, state.requestId, {
        ...response.headers,
        ...(replayedByUseCase ? { 'Idempotency-Replayed': 'true' } : {}),
      });
    }
    const fingerprint = requestFingerprint({
      method: route.method,
      route: route.path,
      params: (event.pathParameters ?? {}) as Record<string, string>,
      body: rawBody ?? null,
    });
    const { response, replayed } = await runIdempotent(
      {
        store: context.idempotency,
        clock: context.clock,
        // The lock need not outlive the function: past its end nothing of this request runs.
        lockMs: Math.min(IDEMPOTENCY_LOCK_MS, Math.max(1, Math.ceil(deadline.lambdaRemainingMs()))),
      },
      { operatorId: input.actor.operatorId, key: idempotencyKey, fingerprint },
      execute,
    );
    return httpResult(response.status, response.body, state.requestId, {
      ...response.headers,
      ...(replayed ? { 'Idempotency-Replayed': 'true' } : {}),
    });
  };

  const handler = middy<HttpEvent, HttpResult, Error, Context>({
    // If even the answer runs out of time: 503 "retry with the same key", never middy's TimeoutError.
    timeoutEarlyResponse: () => {
      throw deadlineProblem();
    },
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(problems(route))
    .use(httpHeaderNormalizer())
    .use(correlation())
    .use(authentication(route))
    .use(jsonBody(route))
    .use({
      after: (request) => {
        if (request.response) {
          request.response.headers['X-Request-Id'] = stateOf(request.event).requestId;
          accessLog(request, route, request.response.statusCode);
        }
      },
    })
    .handler(core);
  return Object.assign(handler, { route, contract });
}
