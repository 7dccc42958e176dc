/**
 * The archive's daily check (functions/jobs/check-archive → core checkArchive): every shoe closed on
 * the day is looked up in the audit archive; a played shoe whose bundle is not there is reported by
 * key and counted in ShoesMissingFromArchive (the stack alarms on it); a shoe closed before any round
 * has nothing to archive; shoes still open, or of another operator, are not the check's. On both
 * stores, with the local write-once archive and the deployed handler's logic.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalAuditArchive } from '@pyb/archive';
import { archiveClosedShoe, archiveKey } from '@pyb/core';
import { type Ctx, context } from '@pyb/core/use-cases';
import { tablePreset } from '@pyb/engine';
import { ARCHIVE_CHECK_METRIC, archiveCheckJobHandler } from '@pyb/functions/archive-check-job';
import { logger } from '@pyb/functions/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { playShoe } from '../support/game';
import { stepsInOrder } from '../support/order';
import { createTestStack, type TestStack } from '../support/stack';

// The file's tests are the steps of one story, each using what the ones before it made (docs/testing.md, "Order and load").
stepsInOrder();

const OP = 'op-arch';
let stack: TestStack;
let ctx: Ctx;
let dir: string;
let archive: LocalAuditArchive;
const shoes: Record<'archived' | 'missing' | 'neverPlayed' | 'open' | 'otherOperator', string> = {
  archived: '',
  missing: '',
  neverPlayed: '',
  open: '',
  otherOperator: '',
};
/** The UTC days the shoes closed on (one, unless the set-up crossed midnight). */
let days: string[] = [];

beforeAll(async () => {
  logger.setLogLevel('SILENT');
  stack = await createTestStack('archive-check');
  ctx = context({ store: stack.store, keys: stack.keys, clock: stack.clock });
  dir = mkdtempSync(join(tmpdir(), 'pyb-archive-check-'));
  archive = new LocalAuditArchive(dir);
});
afterAll(async () => {
  await stack?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function shoeOn(operatorId: string, name: string, rounds: number, close = true): Promise<string> {
  const { core } = stack;
  const table = await core.createTable(admin(operatorId), {
    name,
    variant: 'mini',
    config: { pairBets: true },
  });
  for (const playerId of ['ana', 'ben']) {
    await core.walletTransaction(operator(operatorId), {
      playerId,
      type: 'CREDIT',
      amount: 1_000_000,
      currency: 'EUR',
      idempotencyKey: `${name}-${playerId}`,
    });
  }
  const shoe = await core.openShoe(admin(operatorId), { tableId: table.tableId });
  if (rounds > 0) {
    await playShoe({
      core,
      actor: operator(operatorId),
      tableId: table.tableId,
      players: ['ana', 'ben'],
      config: tablePreset('mini', { pairBets: true }),
      seed: name,
      maxRounds: rounds,
    });
  }
  if (close) await core.closeShoe(admin(operatorId), { shoeId: shoe.shoeId, reason: 'END_OF_SESSION' });
  return shoe.shoeId;
}

const archived = (shoeId: string, operatorId = OP) =>
  archiveClosedShoe(
    {
      exportAudit: (actor, input) => stack.core.exportAudit(actor, input),
      archive,
      now: () => stack.clock.now(),
      retentionDays: 3653,
    },
    { shoeId, operatorId },
  );

/** The job as deployed, for each day the shoes closed on; the metric lines it wrote. */
async function runJob(operators: string[] = [OP], store = archive) {
  const lines: string[] = [];
  const handler = archiveCheckJobHandler(() => ({
    ctx,
    archive: store,
    operators,
    stage: 'test',
    emit: (line) => lines.push(line),
  }));
  const results = [];
  for (const date of days) results.push(await handler({ date }));
  return { checks: results.flatMap((r) => r.checks), metrics: lines.map((l) => JSON.parse(l)) };
}

describe('the archive check', () => {
  it('set-up: two played shoes closed (one archived), one closed unplayed, one open, one of another operator', async () => {
    shoes.archived = await shoeOn(OP, 'arch-1', 2);
    shoes.missing = await shoeOn(OP, 'arch-2', 2);
    shoes.neverPlayed = await shoeOn(OP, 'arch-3', 0);
    shoes.open = await shoeOn(OP, 'arch-4', 1, false);
    shoes.otherOperator = await shoeOn('op-other', 'arch-5', 1);
    expect((await archived(shoes.archived)).status).toBe('ARCHIVED');
    expect((await archived(shoes.neverPlayed)).status).toBe('NOTHING_TO_ARCHIVE');
    const closedAt = await Promise.all(
      [shoes.archived, shoes.missing, shoes.neverPlayed].map(
        async (id) => (await stack.core.getShoe(admin(OP), { shoeId: id })).closedAt!,
      ),
    );
    days = [...new Set(closedAt.map((at) => at.slice(0, 10)))];
  });

  it('reports the played shoe whose bundle is not in the archive, by key, and counts it in the metric', async () => {
    const { checks, metrics } = await runJob();
    const sum = (k: 'closed' | 'archived' | 'neverPlayed') => checks.reduce((n, c) => n + c[k], 0);
    expect({ closed: sum('closed'), archived: sum('archived'), neverPlayed: sum('neverPlayed') }).toEqual({
      closed: 3,
      archived: 1,
      neverPlayed: 1,
    });
    expect(checks.flatMap((c) => c.missing)).toEqual([
      expect.objectContaining({ shoeId: shoes.missing, key: archiveKey(OP, shoes.missing) }),
    ]);
    expect(metrics.reduce((n, m) => n + m[ARCHIVE_CHECK_METRIC], 0)).toBe(1);
    expect(metrics[0]).toMatchObject({
      Stage: 'test',
      _aws: { CloudWatchMetrics: [{ Namespace: 'PuntoYBanca', Dimensions: [['Stage']] }] },
    });
  });

  it('once the archiver has it, nothing is missing (and the metric says 0)', async () => {
    expect((await archived(shoes.missing)).status).toBe('ARCHIVED');
    const { checks, metrics } = await runJob();
    expect(checks.flatMap((c) => c.missing)).toEqual([]);
    expect(metrics.map((m) => m[ARCHIVE_CHECK_METRIC])).toEqual(days.map(() => 0));
  });

  it("checks each operator on its own: the other operator's unarchived shoe is its own finding", async () => {
    const { checks } = await runJob(['op-other']);
    expect(checks.flatMap((c) => c.missing).map((m) => m.shoeId)).toEqual(
      days.includes(
        (await stack.core.getShoe(admin('op-other'), { shoeId: shoes.otherOperator })).closedAt!.slice(0, 10),
      )
        ? [shoes.otherOperator]
        : [],
    );
  });

  it('an archive that cannot answer fails the run after every operator was tried (the scheduler retries)', async () => {
    const asked: string[] = [];
    const failing = {
      stored: async (key: string) => {
        asked.push(key);
        if (key.startsWith(`shoes/${OP}/`)) throw new Error('S3 unavailable');
        return archive.stored(key);
      },
    } as LocalAuditArchive;
    await expect(runJob([OP, 'op-other'], failing)).rejects.toThrow(`failed for ${OP}`);
    expect(asked.some((k) => k.startsWith('shoes/op-other/'))).toBe(true);
  });

  it('refuses an event that is not { operators?, date? } before reading anything', async () => {
    const handler = archiveCheckJobHandler(() => ({
      ctx,
      archive,
      operators: [OP],
      stage: 'test',
      emit: () => {},
    }));
    await expect(handler({ date: '02/12/2026' })).rejects.toThrow();
    await expect(handler({ days: 3 })).rejects.toThrow();
  });
});
