import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { Problem } from './common';
import { acceptsEmptyBody, type EndpointContract, TAGS } from './endpoint-contract';
import { ENDPOINTS } from './endpoints';
import { HTTP_PROBLEMS, PROBLEMS, type ProblemCode } from './problems';

/** What the builder needs of a route (functions/src/routes.ts `Route`; kept structural so that
 * contracts does not depend on functions). */
export interface RouteLike {
  method: 'GET' | 'POST';
  path: string;
  handler: string;
  roles: readonly string[];
  /** Player access tokens admitted (routes.ts `players`). */
  players?: object;
  /** Spends a single-use credential of its own: no Idempotency-Key (routes.ts `singleUse`). */
  singleUse?: true;
}

/** Whether the route takes a credential: an API key or a player token. */
const authenticated = (route: RouteLike): boolean => route.roles.length > 0 || route.players !== undefined;

const REQUEST_ID = /* @__PURE__ */ lazily(() =>
  z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/)
    .optional()
    .meta({
      description:
        'Your id for this request (1-128 visible ASCII): echoed as X-Request-Id and in problem answers; otherwise the gateway mints one.',
      example: 'req-7f3a2c',
    }),
);

const CommonHeaders = /* @__PURE__ */ lazily(() =>
  z.object({
    'X-Request-Id': REQUEST_ID(),
    'X-Correlation-Id': REQUEST_ID().meta({ description: 'Read when X-Request-Id is absent.' }),
  }),
);

const IdempotencyHeaders = /* @__PURE__ */ lazily(() =>
  CommonHeaders().extend({
    'Idempotency-Key': z
      .string()
      .regex(/^[\x21-\x7e]{1,255}$/)
      .meta({
        description:
          'Required on every POST: 1-255 visible ASCII. Same key + same request: the first answer is replayed (Idempotency-Replayed: true). Same key + another request: 422. Still in flight: 409. Scoped per operator, remembered 24 h.',
        example: 'bet-7f3a2c',
      }),
  }),
);

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The codes a route can answer: its use case's, and those the HTTP layer adds to its kind of route. */
export function routeProblems(route: RouteLike, contract: EndpointContract): ProblemCode[] {
  const codes = new Set<ProblemCode>([...contract.problems, ...HTTP_PROBLEMS.any]);
  if (authenticated(route)) for (const c of HTTP_PROBLEMS.authenticated) codes.add(c);
  if (route.players) for (const c of HTTP_PROBLEMS.player) codes.add(c);
  if (contract.params || contract.query || contract.body)
    for (const c of HTTP_PROBLEMS.validated) codes.add(c);
  if (route.method === 'POST')
    for (const c of HTTP_PROBLEMS.post)
      if (!route.singleUse || !c.startsWith('IDEMPOTENCY_KEY_')) codes.add(c);
  return [...codes];
}

const STATUS_WORDS: Record<number, string> = {
  400: 'Invalid request',
  401: 'No API key, or an unknown one',
  403: 'The key may not do this',
  404: 'Not found (another operator’s resource looks the same)',
  409: 'Conflict with the state of a resource, or the Idempotency-Key is in flight; may succeed later',
  413: 'Body too large',
  415: 'Not a UTF-8 application/json body',
  422: 'Refused by the game or wallet rules, or an Idempotency-Key reused for another request',
  500: 'Something went wrong on our side',
  503: 'Not now: retry after Retry-After (DEADLINE_EXCEEDED: with the same Idempotency-Key)',
};

/** The OpenAPI 3.1 document of the API, from the routes table and the endpoint contracts. */
export function buildOpenApi(routes: readonly RouteLike[], options: { serverUrl?: string } = {}) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key: `Authorization: Bearer pyb_...`. Each key has one operator and one role.',
  });
  const playerToken = registry.registerComponent('securitySchemes', 'playerToken', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      "A player's access token (POST /v1/sessions): `Authorization: Bearer <JWT>`, ES256, 5 minutes. It acts for its own player only.",
  });
  registry.registerComponent('headers', 'X-Request-Id', {
    description:
      'The request id: yours (X-Request-Id or X-Correlation-Id) or one minted; quote it to support.',
    schema: { type: 'string' },
    required: true,
  });
  registry.registerComponent('headers', 'Idempotency-Replayed', {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  });
  registry.registerComponent('headers', 'Retry-After', {
    description:
      'Seconds to wait before retrying: on 409 CONCURRENT_UPDATE (nothing was written) and on the 503s that mean "not now".',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  });
  registry.registerComponent('headers', 'WWW-Authenticate', {
    description: 'The scheme to authenticate with: `Bearer`.',
    schema: { type: 'string', enum: ['Bearer'] },
    required: true,
  });
  for (const route of routes) {
    const contract = (ENDPOINTS as Record<string, EndpointContract>)[route.handler];
    if (!contract) throw new Error(`no contract for ${route.handler} (packages/contracts/src/endpoints.ts)`);
    const isPublic = !authenticated(route);
    const responses: RouteConfig['responses'] = {
      [String(contract.status)]: {
        description: contract.status === 201 ? 'Created' : 'OK',
        headers: {
          'X-Request-Id': header('X-Request-Id'),
          ...(route.method === 'POST' && { 'Idempotency-Replayed': header('Idempotency-Replayed') }),
        },
        content: Object.fromEntries(
          (contract.media ?? ['application/json']).map((type) => [type, { schema: contract.response() }]),
        ),
      },
    };
    const byStatus = new Map<number, ProblemCode[]>();
    for (const code of routeProblems(route, contract)) {
      const status = PROBLEMS[code][0];
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
      responses[String(status)] = {
        description: `${STATUS_WORDS[status] ?? 'Refused'}: ${codes.join(', ')}.`,
        headers: {
          'X-Request-Id': header('X-Request-Id'),
          ...(status === 401 && { 'WWW-Authenticate': header('WWW-Authenticate') }),
          ...((status === 503 || codes.includes('CONCURRENT_UPDATE')) && {
            'Retry-After': header('Retry-After'),
          }),
        },
        content: {
          'application/problem+json': {
            // The Problem schema, its code narrowed to what this route answers with this status.
            schema: z.intersection(Problem(), z.object({ code: z.enum(codes) })),
          },
        },
      };
    }
    const request: NonNullable<RouteConfig['request']> = {
      headers: route.method === 'POST' && !route.singleUse ? IdempotencyHeaders() : CommonHeaders(),
    };
    if (contract.params) request.params = contract.params();
    if (contract.query) request.query = contract.query();
    if (route.method === 'POST' && contract.body) {
      request.body = {
        required: !acceptsEmptyBody(contract.body),
        content: { 'application/json': { schema: contract.body() } },
      };
    }
    registry.registerPath({
      method: route.method === 'GET' ? 'get' : 'post',
      path: route.path,
      operationId: camel(route.handler),
      summary: contract.summary,
      description: contract.description,
      tags: [contract.tag],
      security: isPublic
        ? []
        : [
            ...(route.roles.length > 0 ? [{ [bearer.name]: [] }] : []),
            ...(route.players ? [{ [playerToken.name]: [] }] : []),
          ],
      request,
      responses,
      'x-roles': [...route.roles],
      ...(route.players && { 'x-player-token': true }),
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Punto y Banca game-round API',
      version: '1.0.0',
      description:
        'Tables, provably fair shoes, rounds, bets, wallets. Amounts are integers in minor units. Errors are application/problem+json (RFC 9457) with a stable `code`; each operation lists its codes per status. Any path that is no endpoint answers 404 ROUTE_NOT_FOUND, a wrong method 405 METHOD_NOT_ALLOWED. See docs/api.md.',
      contact: { name: 'Punto y Banca platform team', url: 'https://github.com/punto-y-banca/platform' },
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
  });
}

const camel = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
