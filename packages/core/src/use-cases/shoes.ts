import {
  bytesToBase64,
  bytesToHex,
  closeStatementBytes,
  commitmentOf,
  digest,
  RULES_VERSION,
  SHOE_CLOSE_SCHEME,
  type ShoeCloseStatement,
  shoeStatement,
  statementBytes,
} from '@pyb/fairness';
import type { Actor } from '../actor';
import type { ShoeView } from '../api';
import { chainRecord, nextAudit, putAudit } from '../audit-chain';
import type { ShoeRecord } from '../model';
import { TransactionCanceled, type WriteOp } from '../ports/store';
import { backoff, MAX_ATTEMPTS, mapBounded, tooMuchContention } from '../retry';
import { shoeView } from '../views';
import { collectDebt } from './commission';
import { type Ctx, checkId, conflict, guard } from './context';
import { loadTable } from './tables';

export async function loadShoe(
  ctx: Ctx,
  actor: Actor,
  shoeId: string,
  access: 'read' | 'write',
): Promise<ShoeRecord> {
  checkId('shoeId', shoeId);
  return guard(actor, await ctx.store.get('shoe', { shoeId }), 'shoe', shoeId, access);
}

export async function getShoe(ctx: Ctx, actor: Actor, input: { shoeId: string }): Promise<ShoeView> {
  return shoeView(await loadShoe(ctx, actor, input.shoeId, 'read'));
}

/**
 * A new shoe: seed from the key service, stored only sealed (context {shoeId, operatorId}); the
 * commitment and the signed statement are published now, before any bet; SHOE_OPENED starts the
 * shoe's audit chain (genesis = the commitment).
 */
export async function openShoe(ctx: Ctx, actor: Actor, input: { tableId: string }): Promise<ShoeView> {
  const table = await loadTable(ctx, actor, input.tableId, 'write');
  if (table.currentShoeId)
    throw conflict('SHOE_ALREADY_OPEN', `table ${table.tableId} already has shoe ${table.currentShoeId}`);
  const shoeId = ctx.ids.next('shoe');
  const context = { shoeId, operatorId: table.operatorId };
  const seed = await ctx.keys.generateSeed();
  const sealed = await ctx.keys.sealSeed(seed, context);
  const commitment = commitmentOf(seed);
  seed.fill(0);
  const { keyId } = await ctx.keys.publicKey();
  const openedAt = ctx.now();
  const statement = shoeStatement({
    shoeId,
    tableId: table.tableId,
    operatorId: table.operatorId,
    rulesVersion: RULES_VERSION,
    table: { ...table.config },
    commitment,
    createdAt: openedAt,
    keyId,
  });
  const signed = await ctx.keys.sign(statementBytes(statement));
  const signature = bytesToBase64(signed.signature);
  const shoe: ShoeRecord = {
    shoeId,
    tableId: table.tableId,
    operatorId: table.operatorId,
    number: table.shoes + 1,
    status: 'OPEN',
    config: table.config,
    sealedSeed: bytesToBase64(sealed),
    commitment,
    statement,
    signature,
    keyId,
    rounds: 0,
    openedAt,
  };
  const opened = chainRecord({ genesis: commitment }, shoeId, 'SHOE_OPENED', undefined, openedAt, {
    tableId: table.tableId,
    number: shoe.number,
    statement,
    signature,
  });
  const ops: WriteOp[] = [
    {
      kind: 'update',
      entity: 'table',
      key: { tableId: table.tableId },
      set: { currentShoeId: shoeId },
      add: { shoes: 1 },
      expect: { currentShoeId: null, shoes: table.shoes },
    },
    { kind: 'put', entity: 'shoe', key: { shoeId }, item: shoe },
    putAudit(opened),
  ];
  for (let attempt = 0; ; attempt++) {
    try {
      await ctx.store.transact(ops);
      return shoeView(shoe);
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      // A collision alone (no condition failed) changed nothing: the same transaction may go again.
      if (!error.transient || attempt + 1 >= MAX_ATTEMPTS) {
        throw conflict('SHOE_ALREADY_OPEN', `table ${table.tableId} opened another shoe meanwhile`);
      }
      await backoff(attempt);
    }
  }
}

/**
 * Closes a shoe (no round may be in play): stops new rounds, collects every deferred commission,
 * reveals the server seed, appends SHOE_CLOSED and signs the chain head. Resumable: each step is
 * conditional, so calling again after a failure finishes the job.
 */
export async function closeShoe(ctx: Ctx, actor: Actor, input: { shoeId: string }): Promise<ShoeView> {
  let shoe = await loadShoe(ctx, actor, input.shoeId, 'write');
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (shoe.status === 'CLOSED') return shoeView(shoe);
    if (shoe.status === 'OPEN' || shoe.status === 'ENDED') {
      const table = await ctx.store.get('table', { tableId: shoe.tableId });
      if (table?.openRoundId)
        throw conflict('ROUND_IN_PLAY', `round ${table.openRoundId} must be resolved or voided first`);
      try {
        await ctx.store.transact([
          {
            kind: 'update',
            entity: 'shoe',
            key: { shoeId: shoe.shoeId },
            set: { status: 'CLOSING' },
            expect: { status: shoe.status },
          },
          {
            kind: 'check',
            entity: 'table',
            key: { tableId: shoe.tableId },
            expect: { openRoundId: null, currentShoeId: shoe.shoeId },
          },
        ]);
      } catch (error) {
        if (!(error instanceof TransactionCanceled)) throw error;
        await backoff(attempt);
      }
    } else {
      await finishClose(ctx, shoe);
    }
    shoe = (await ctx.store.get('shoe', { shoeId: shoe.shoeId }))!;
  }
  throw tooMuchContention('closing the shoe');
}

async function finishClose(ctx: Ctx, shoe: ShoeRecord): Promise<void> {
  const debts = await ctx.store.listDebts(shoe.shoeId);
  await mapBounded(
    debts.filter((d) => d.owed > 0),
    ctx.settleConcurrency,
    (debt) => collectDebt(ctx, debt, undefined),
  );
  const collected = (await ctx.store.listDebts(shoe.shoeId)).map((d) => ({
    id: d.playerId,
    collected: d.collected,
    owed: d.owed,
  }));
  const serverSeed = await ctx.decks.serverSeed(shoe);
  const deck = shoe.clientSeed ? await ctx.decks.order(shoe) : undefined;
  const closedAt = ctx.now();
  const record = await nextAudit(ctx.store, shoe.shoeId, 'SHOE_CLOSED', undefined, closedAt, {
    serverSeed: bytesToHex(serverSeed),
    clientSeed: shoe.clientSeed ?? null,
    commitment: shoe.commitment,
    cutIndex: deck?.cutIndex ?? null,
    rounds: shoe.rounds,
    coups: shoe.state?.coups ?? 0,
    commission: { digest: digest(collected), total: collected.reduce((s, d) => s + d.collected, 0) },
  });
  const { keyId } = await ctx.keys.publicKey();
  const statement: ShoeCloseStatement = {
    scheme: SHOE_CLOSE_SCHEME,
    shoeId: shoe.shoeId,
    commitment: shoe.commitment,
    head: record.hash,
    length: record.seq + 1,
    closedAt,
    keyId,
  };
  const signed = await ctx.keys.sign(closeStatementBytes(statement));
  try {
    await ctx.store.transact([
      {
        kind: 'update',
        entity: 'shoe',
        key: { shoeId: shoe.shoeId },
        set: {
          status: 'CLOSED',
          closedAt,
          serverSeed: bytesToHex(serverSeed),
          cutIndex: deck?.cutIndex ?? null,
          close: { statement, signature: bytesToBase64(signed.signature) },
        },
        expect: { status: 'CLOSING' },
      },
      putAudit(record),
      {
        kind: 'update',
        entity: 'table',
        key: { tableId: shoe.tableId },
        set: { currentShoeId: null },
        expect: { currentShoeId: shoe.shoeId },
      },
    ]);
  } catch (error) {
    if (!(error instanceof TransactionCanceled)) throw error;
    // Someone else closed it, or a concurrent append took the sequence number: the caller re-reads.
  } finally {
    serverSeed.fill(0);
  }
}
