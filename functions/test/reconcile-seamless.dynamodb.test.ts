/** The daily reconciliation job's Lambda: its input, the use case's call, and the metric the alarm watches. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildContext, setAppContext } from '../src/context';

const calls = vi.hoisted(() => {
  process.env.LOG_LEVEL = 'SILENT';
  return [] as unknown[];
});
vi.mock('@pyb/core/use-cases', async (original) => ({
  ...(await original<typeof import('@pyb/core/use-cases')>()),
  reconcileSeamlessDay: async (ctx: { outbox: unknown }, input: { operatorId: string; date?: string }) => {
    calls.push({ outbox: ctx.outbox, input });
    const unresolved = input.operatorId === 'casino-b' ? 2 : 0;
    return {
      operatorId: input.operatorId,
      date: input.date ?? '2026-11-20',
      from: '2026-11-20T00:00:00.000Z',
      to: '2026-11-21T00:00:00.000Z',
      asOf: '2026-11-21T00:30:00.000Z',
      redelivered: 1,
      summary: { count: 9, totals: [], net: [], unresolved: { count: unresolved, transactions: [] } },
    };
  },
}));
const { handler, UNRESOLVED_METRIC } = await import('../jobs/reconcile-seamless/handler');

afterEach(() => {
  setAppContext(undefined);
  vi.restoreAllMocks();
});

function emitted(log: { mock: { calls: unknown[][] } }) {
  return log.mock.calls
    .map((c) => String(c[0]))
    .filter((line) => line.includes('"_aws"'))
    .map(
      (line) =>
        JSON.parse(line) as Record<string, unknown> & {
          _aws: { CloudWatchMetrics: unknown[] };
        },
    );
}

describe('reconcile-seamless handler', () => {
  it('reconciles the operator the schedule names, with the outbox; emits SeamlessUnresolved (0 included)', async () => {
    const context = buildContext({
      TABLE_PREFIX: 'unused',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
      STAGE: 'test',
    });
    const outbox = { send: async () => undefined };
    context.outboxQueue = outbox;
    setAppContext(context);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(await handler({ operatorId: 'casino-b' })).toEqual({
      operatorId: 'casino-b',
      date: '2026-11-20',
      count: 9,
      redelivered: 1,
      unresolved: 2,
    });
    await handler({ operatorId: 'acme', date: '2026-11-02' });
    expect(calls).toEqual([
      { outbox, input: { operatorId: 'casino-b' } },
      { outbox, input: { operatorId: 'acme', date: '2026-11-02' } },
    ]);
    const metrics = emitted(log);
    expect(metrics.map((m) => [m.Operator, m[UNRESOLVED_METRIC], m.Stage])).toEqual([
      ['casino-b', 2, process.env.STAGE ?? 'local'],
      ['acme', 0, process.env.STAGE ?? 'local'],
    ]);
    expect(metrics[0]!._aws.CloudWatchMetrics[0]).toEqual({
      Namespace: 'PuntoYBanca',
      Dimensions: [['Stage', 'Operator']],
      Metrics: [{ Name: 'SeamlessUnresolved', Unit: 'Count' }],
    });
  });

  it('refuses an event without a valid operator id (a misconfigured schedule fails loudly)', async () => {
    for (const event of [{}, { operatorId: 'Not An Id' }, null]) {
      await expect(handler(event as never)).rejects.toThrow(/operatorId/);
    }
  });
});
