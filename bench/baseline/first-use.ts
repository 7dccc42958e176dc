/**
 * bench/bundles.ts's probe of what a handler's first request adds since the schemas are built on first
 * use (packages/engine/src/lazily.ts): bundled like a handler, imported, then `buildSchemas(name)`
 * builds that endpoint's params, query, body and response schemas — what its first request builds.
 */
import type { EndpointContract } from '@pyb/contracts';
import { ENDPOINTS } from '@pyb/contracts/endpoints';

export function buildSchemas(name: string): void {
  const contract = (ENDPOINTS as Record<string, EndpointContract>)[name];
  if (!contract) throw new Error(`no contract for ${name}`);
  contract.params?.();
  contract.query?.();
  contract.body?.().safeParse({});
  contract.response();
}
