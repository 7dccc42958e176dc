import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { Problem } from './common';
import { acceptsEmptyBody, ENDPOINTS, type EndpointContract } from './endpoints';

/** What the builder needs of a route (functions/src/routes.ts `Route`; kept structural so that
 * contracts does not depend on functions). */
export interface RouteLike {
  method: 'GET' | 'POST';
  path: string;
  handler: string;
  roles: readonly string[];
}

const IdempotencyHeaders = z.object({
  'Idempotency-Key': z.string().min(1).max(255).meta({
    description:
      'Required on every POST. Same key + same request: the first answer is replayed. Same key + another request: 422. Still in flight: 409. Scoped per operator, remembered 24 h.',
    example: 'bet-7f3a2c',
  }),
});

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: Problem } },
});

/** The OpenAPI 3.1 document of the API, from the routes table and the endpoint contracts. */
export function buildOpenApi(routes: readonly RouteLike[], options: { serverUrl?: string } = {}) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key: `Authorization: Bearer pyb_...`. Each key has one operator and one role.',
  });
  for (const route of routes) {
    const contract: EndpointContract | undefined = (ENDPOINTS as Record<string, EndpointContract>)[
      route.handler
    ];
    const isPublic = route.roles.length === 0;
    const responses: RouteConfig['responses'] = {};
    responses[String(contract?.status ?? 200)] = contract
      ? { description: 'OK', content: { 'application/json': { schema: contract.response } } }
      : { description: 'OK (see the endpoint documentation)' };
    if (contract?.params || contract?.query || contract?.body) responses['400'] = problem('Invalid request');
    if (!isPublic) {
      responses['401'] = problem('No API key, or an unknown one');
      responses['403'] = problem('The key has a role that may not call this endpoint');
    }
    if (contract?.params) responses['404'] = problem('Unknown id, or a resource of another operator');
    if (route.method === 'POST') {
      responses['409'] = problem(
        'Conflict with the resource state, or the Idempotency-Key is still in flight',
      );
      responses['413'] = problem('Body larger than the limit');
      responses['415'] = problem('The body is not application/json');
      responses['422'] = problem(
        'Refused by the game or wallet rules, or an Idempotency-Key reused for another request',
      );
    }
    const request: NonNullable<RouteConfig['request']> = {};
    if (contract?.params) request.params = contract.params;
    if (contract?.query) request.query = contract.query;
    if (route.method === 'POST') {
      request.headers = IdempotencyHeaders;
      if (contract?.body) {
        request.body = {
          required: !acceptsEmptyBody(contract.body),
          content: { 'application/json': { schema: contract.body } },
        };
      }
    }
    const config: RouteConfig = {
      method: route.method === 'GET' ? 'get' : 'post',
      path: route.path,
      operationId: camel(route.handler),
      summary: contract?.summary ?? route.handler,
      security: isPublic ? [] : [{ [bearer.name]: [] }],
      request,
      responses,
      'x-roles': [...route.roles],
    };
    if (contract?.description) config.description = contract.description;
    registry.registerPath(config);
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Punto y Banca game-round API',
      version: '1.0.0',
      description:
        'Tables, provably fair shoes, rounds, bets, wallets. Amounts are integers in minor units. Errors are application/problem+json (RFC 9457) with a stable `code`. See docs/api.md.',
    },
    servers: [{ url: options.serverUrl ?? '/' }],
  });
}

const camel = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
