/**
 * Each function takes its own route and its own contract (functions/<handler>/handler.ts passes
 * `<handler>Route` and `<handler>Contract` to httpHandler): the route is the routes.ts entry of its
 * folder and the contract is the one the OpenAPI document describes for it (`ENDPOINTS[handler]`),
 * so the document says what the deployed handler validates.
 */
import type { EndpointContract } from '@pyb/contracts';
import { ENDPOINTS } from '@pyb/contracts/endpoints';
import { describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../src/routes';

// The logger reads its level when it loads: quiet before any import runs.
vi.hoisted(() => {
  process.env.LOG_LEVEL ??= 'SILENT';
});

describe('each function’s route and contract', () => {
  it.each(ROUTES.map((route) => [route.handler, route] as const))('%s', async (name, route) => {
    const { handler } = (await import(`../${name}/handler.ts`)) as {
      handler: { route: unknown; contract: unknown };
    };
    expect(handler.route).toBe(route);
    expect(handler.contract).toBe((ENDPOINTS as Record<string, EndpointContract>)[name]);
  });
});
