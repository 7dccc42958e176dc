import { beforeAll } from 'vitest';

/**
 * Declares a file's tests to be the steps of one story (a shoe played, then closed, then replayed…),
 * run in the order written even when PYB_TEST_SEQUENCE_SEED shuffles the run: the file still moves
 * among the others, its tests do not. Call it once at the top of the file. The order is then written
 * down, not hidden; a file whose tests do not depend on each other does not call it.
 */
export function stepsInOrder(): void {
  // Vitest decides whether to shuffle a suite's children after its beforeAll hooks ran (runner
  // `runSuite`), so clearing the flag here keeps the written order, for the file and every describe.
  type Node = { shuffle?: boolean; tasks?: readonly unknown[]; type: string };
  const keep = (suite: Node) => {
    suite.shuffle = false;
    for (const t of (suite.tasks ?? []) as Node[]) if (t.type === 'suite') keep(t);
  };
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a hook uses from this pattern
  beforeAll(({}, file) => keep(file as unknown as Node));
}
