import { ROUTES, type Route } from '@pyb/functions/routes';

/** The ROUTES entry a concrete method and path hit (the auth matrix and key choice use it). */
export function routeOf(method: string, path: string): Route | undefined {
  const bare = path.split('?')[0]!;
  return ROUTES.find(
    (r) => r.method === method && new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(bare),
  );
}
