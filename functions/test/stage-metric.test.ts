/** The scheduled jobs' alarm metrics: one EMF line, a count under the Stage dimension alone. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countForStage } from '../src/metrics-names';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('countForStage', () => {
  it('writes one embedded-metric-format line CloudWatch turns into a count of the stage', () => {
    vi.stubEnv('STAGE', 'prod');
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => {
      lines.push(line);
    });
    countForStage('RoundsInterrupted', { roundId: 'rnd_1', action: 'VOIDED' });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'PuntoYBanca',
        Dimensions: [['Stage']],
        Metrics: [{ Name: 'RoundsInterrupted', Unit: 'Count' }],
      },
    ]);
    expect(typeof line._aws.Timestamp).toBe('number');
    expect(line).toMatchObject({ Stage: 'prod', RoundsInterrupted: 1, roundId: 'rnd_1', action: 'VOIDED' });
  });
});
