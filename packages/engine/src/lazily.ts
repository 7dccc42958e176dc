/**
 * A value built on its first use, then kept: `export const Wallet = lazily(() => z.object({ … }))`,
 * used as `Wallet()`. Every zod schema of the API contracts, of the table configuration and of the
 * proof formats is declared this way — the one way — so that loading a module builds no schema: a
 * Lambda bundle pays none of them when it starts, and on its first request only those its endpoint
 * reaches (docs/benchmarks.md, "Lambda bundles and cold start"). The same instance is returned on
 * every call, so a schema keeps its identity (its `meta({ id })` is the OpenAPI component).
 */
export function lazily<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
