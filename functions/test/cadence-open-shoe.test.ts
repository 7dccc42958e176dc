/**
 * The cadence's shoe opener (functions/jobs/cadence-open-shoe) runs the shoe step alone: any other
 * step is refused before it builds a context or calls any service, so its seal rights (GenerateRandom,
 * Encrypt) can serve nothing but opening a shoe (K1). test/integration/cadence.memory.test.ts plays
 * the step itself through the state machine.
 */
import { describe, expect, it, vi } from 'vitest';
import { handler } from '../jobs/cadence-open-shoe/handler';

vi.hoisted(() => {
  process.env.LOG_LEVEL ??= 'SILENT';
});

const STATE = { tableId: 'tbl_01kx8m1074c2hb0s3ps8q5yvrn', operatorId: 'acme', tableRound: 3 };

describe('cadence-open-shoe', () => {
  it.each(['open', 'close', 'deal', 'settle', 'next', 'lock', undefined])(
    'refuses the %s step',
    async (step) => {
      await expect(handler({ step: step as string, state: STATE })).rejects.toMatchObject({
        name: 'INVALID_INPUT',
        message: expect.stringMatching(/shoe step only/),
      });
    },
  );
});
