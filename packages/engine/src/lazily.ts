/**
 * A value built on its first use, then kept: `export const Wallet = lazily(() => z.object({ … }))`
 * (with the `@__PURE__` mark, below), used as `Wallet()`. Every zod schema of the API contracts, of
 * the table configuration and of the proof formats is declared this way — the one way — so that
 * loading a module builds no schema: a Lambda bundle pays none of them when it starts, and on its
 * first request only those its endpoint reaches (docs/benchmarks.md, "Lambda bundles and cold
 * start"). The same instance is returned on every call, so a schema keeps its identity (its
 * `meta({ id })` is the OpenAPI component).
 *
 * Calling it has no side effect (it only wraps `build`), and bundlers are told so: a declaration
 * nothing in a bundle uses is then dropped with everything its builder names (other schemas, zod's
 * own code), and a handler's bundle holds the schemas its endpoint uses, not every schema of the
 * modules it touches (docs/architecture.md, "Per-endpoint contracts"). Without it a bundler keeps
 * every `const X = lazily(…)` it meets, since a call might do anything. Two marks say it:
 * - `@__NO_SIDE_EFFECTS__` on this declaration: some bundlers apply it to every call, but esbuild
 *   0.28 only to calls in this same file (evanw/esbuild#4369), and the schemas are declared in others;
 * - a `@__PURE__` comment just before each call, which every bundler, esbuild included, honours
 *   wherever the function comes from. That is what drops unused schemas from the Lambda bundles;
 *   packages/contracts/test/lazy-schemas.test.ts refuses a call without it.
 */
/* @__NO_SIDE_EFFECTS__ */
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
