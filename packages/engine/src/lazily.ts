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

/**
 * `load` run on the first call and its promise kept, so every later (or concurrent) call shares one
 * load; a failed load is not kept, so the next call tries again instead of replaying the error. The
 * asynchronous sibling of `lazily`, for what is loaded with `import()`.
 *
 * The one way the code loads what some callers never need — a curve of the verifier (fairness), an AWS
 * client (KMS, SQS, EventBridge Scheduler, S3, Secrets Manager) or the seamless wallet client: a bundler
 * puts it in a chunk of its own, which a Lambda cold start or a page load neither parses nor evaluates
 * until it is used (docs/architecture.md, "What a function loads"). Loading a module is not I/O: the
 * pure packages stay pure and run in a browser. A module-level call is marked `/* @__PURE__ *\/` where
 * it is made (esbuild honours `@__NO_SIDE_EFFECTS__` only in the declaring file), so a bundle that never
 * calls the result drops it and its chunk.
 */
/* @__NO_SIDE_EFFECTS__ */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    // Through an async function: a `load` that throws before its promise is a failed load too.
    loaded ??= (async () => load())().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}
