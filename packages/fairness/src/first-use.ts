/**
 * A module loaded with `import()` on its first use, its promise kept: what only some callers need (a
 * curve) stays out of what loading the package parses, and a bundler splits it into a chunk of its
 * own. A failed load is not kept, so the next call tries again.
 * Marked free of side effects so a bundle that never calls the result drops the call (and its chunk).
 */
/* @__NO_SIDE_EFFECTS__ */
export function loadedOnFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
