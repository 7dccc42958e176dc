/**
 * `load` run on the first call and its promise kept, so every later (or concurrent) call shares one
 * load; a failed load is not kept, so the next call tries again instead of replaying the error.
 *
 * The one way the adapters load what some requests never need — an AWS client (KMS, SQS, EventBridge
 * Scheduler, S3, Secrets Manager) or the seamless wallet client — with `import()`: a Lambda bundle puts it
 * in a chunk of its own, which a cold start neither parses nor evaluates until it is used
 * (docs/architecture.md, "What a function loads"). Marked free of side effects, so a module-level
 * `onFirstUse(...)` a bundle never calls is dropped with its chunk.
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
