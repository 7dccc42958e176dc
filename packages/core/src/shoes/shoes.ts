import { SHOE_CLOSE_REASONS } from '@pyb/contracts';
import {
  bytesToBase64,
  bytesToHex,
  closeStatementBytes,
  commissionRecord,
  commitmentOf,
  RULES_VERSION,
  SHOE_CLOSE_SCHEME,
  SHOE_V3_SCHEME,
  type ShoeCloseStatement,
  saltedDigest,
  shoeStatement,
  statementBytes,
  statementDigest,
} from '@pyb/fairness';
import type { Actor, CloseShoeInput, ShoeRecord, ShoeView } from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  conflict,
  DomainError,
  invalid,
  mapBounded,
  shoeAbandoned,
  shoeView,
  TransactionCanceled,
  tooMuchContention,
  type WriteOp,
} from '../shared';
import {
  assertAvailable,
  assertUnlocked,
  loadTable,
  lockForAudit,
  shoeInPlay,
  underLockOut,
} from '../tables';
import { chainRecord, eventAt, latest, newDigestSalt, nextAudit, parseAuditLog, putAudit } from '../trail';
import { collectDebt } from '../wallet';
import { chainProblemsBeforeClose, revealedVoids, roundsOfChain } from './close-checks';
import { signContributionsHead } from './contributions';
import { countDiscard, earlyCloseDiscard } from './discards';
import { drawCutIndex } from './draw-v3';
import { loadShoe } from './load-shoe';
import { previousOpenedOf } from './opened-link';
import { signRoundHead } from './round-heads';
import { decksOf, shoeWithOrder } from './shoe-order';
import { certifiedKey, signCertified } from './signing';

export async function getShoe(ctx: Ctx, actor: Actor, input: { shoeId: string }): Promise<ShoeView> {
  return shoeView(await loadShoe(ctx, actor, input.shoeId, 'read'));
}

/**
 * A new shoe: seed from the key service, stored only sealed (context {shoeId, operatorId}); the
 * commitment and the signed statement are published now, before any bet — with the shoe's number at
 * its table, the previous shoe's signed close head, the beacon network and margin, and the code
 * version. SHOE_OPENED starts the shoe's audit chain (genesis = the commitment).
 */
export async function openShoe(ctx: Ctx, actor: Actor, input: { tableId: string }): Promise<ShoeView> {
  const table = await loadTable(ctx, actor, input.tableId, 'write');
  if (table.currentShoeId) throw shoeInPlay(table);
  assertUnlocked(table);
  assertAvailable(table);
  const shoeId = ctx.ids.next('shoe');
  const context = { shoeId, operatorId: table.operatorId };
  // A key-service or randomness failure here locks the table (lock-out.ts).
  const { sealed, commitment, salt } = await underLockOut(
    ctx,
    table.tableId,
    { phase: 'OPEN_SHOE' },
    async () => {
      const seed = await ctx.keys.generateSeed();
      try {
        return {
          sealed: await ctx.keys.sealSeed(seed, context),
          commitment: commitmentOf(seed),
          salt: await newDigestSalt(ctx),
        };
      } finally {
        seed.fill(0);
      }
    },
  );
  // Certified before the statement is dated: a key signs only inside its validity interval.
  const { keyId, validFrom } = (
    await underLockOut(ctx, table.tableId, { phase: 'OPEN_SHOE' }, () => certifiedKey(ctx))
  ).certificate;
  const openedAt = latest(ctx.now(), validFrom);
  const statement = shoeStatement({
    scheme: ctx.shoeScheme,
    shoeId,
    tableId: table.tableId,
    operatorId: table.operatorId,
    number: table.shoes + 1,
    previous: table.lastShoe ?? null,
    previousOpened: await previousOpenedOf(ctx, table),
    rulesVersion: RULES_VERSION,
    table: { ...table.config },
    commitment,
    beacon: { ...(await ctx.beacon.network()), marginSeconds: ctx.beaconMarginSeconds },
    codeVersion: ctx.codeVersion,
    saltCommitment: salt.commitment,
    createdAt: openedAt,
    keyId,
  });
  const { signature } = await underLockOut(ctx, table.tableId, { phase: 'OPEN_SHOE' }, () =>
    signCertified(ctx, statementBytes(statement)),
  );
  const shoe: ShoeRecord = {
    shoeId,
    tableId: table.tableId,
    operatorId: table.operatorId,
    number: table.shoes + 1,
    status: 'OPEN',
    config: table.config,
    sealedSeed: bytesToBase64(sealed),
    commitment,
    digestSalt: salt.salt,
    statement,
    signature,
    keyId,
    rounds: 0,
    contributions: 0,
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
      set: {
        currentShoeId: shoeId,
        lastOpened: { shoeId, number: shoe.number, statement: statementDigest(statement) },
      },
      add: { shoes: 1 },
      expect: { currentShoeId: null, shoes: table.shoes, lock: null },
    },
    { kind: 'put', entity: 'shoe', key: { shoeId }, item: shoe },
    putAudit(opened),
  ];
  for (const attempt of attempts(ctx)) {
    try {
      await ctx.store.transact(ops);
      return shoeView(shoe);
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      // A collision alone (no condition failed) changed nothing: the same transaction may go again.
      if (!error.transient) break;
      await backoff(attempt);
    }
  }
  const now = await ctx.store.get('table', { tableId: table.tableId });
  if (now) assertUnlocked(now); // locked meanwhile (another call's failure)
  throw conflict('SHOE_ALREADY_OPEN', `table ${table.tableId} opened another shoe meanwhile`);
}

/**
 * Closes a shoe (no round may be in play): stops new rounds, collects every deferred commission,
 * re-walks the chain, reveals the server seed, appends SHOE_CLOSED and signs the chain head. A shoe
 * the cut card has not ended is closed early only with a reason (SHOE_CLOSE_REASONS), recorded in
 * SHOE_CLOSED. Resumable: each step is conditional, so calling again after a failure finishes the job.
 */
export async function closeShoe(ctx: Ctx, actor: Actor, input: CloseShoeInput): Promise<ShoeView> {
  if (input.reason !== undefined && !SHOE_CLOSE_REASONS.includes(input.reason)) {
    throw invalid('CLOSE_REASON_INVALID', `reason must be one of ${SHOE_CLOSE_REASONS.join(', ')}`);
  }
  let shoe = await loadShoe(ctx, actor, input.shoeId, 'write');
  for (const attempt of attempts(ctx)) {
    if (shoe.status === 'CLOSED') return shoeView(shoe);
    if (shoe.status === 'ABANDONED') throw shoeAbandoned(shoe);
    if (shoe.status === 'OPEN' || shoe.status === 'ENDED') {
      const table = await ctx.store.get('table', { tableId: shoe.tableId });
      if (table?.openRoundId)
        throw conflict('ROUND_IN_PLAY', `round ${table.openRoundId} must be resolved or voided first`);
      if (shoe.status === 'OPEN' && input.reason === undefined) {
        throw new DomainError(
          'UNPROCESSABLE',
          'CLOSE_REASON_REQUIRED',
          `shoe ${shoe.shoeId} has not reached its cut card: closing it early needs a reason (${SHOE_CLOSE_REASONS.join(', ')})`,
        );
      }
      const discard = shoe.status === 'OPEN' ? earlyCloseDiscard(ctx, shoe) : undefined;
      try {
        await ctx.store.transact([
          {
            kind: 'update',
            entity: 'shoe',
            key: { shoeId: shoe.shoeId },
            set: {
              status: 'CLOSING',
              ...(shoe.status === 'OPEN' && { closeReason: input.reason }),
              ...(discard && { discard }),
            },
            expect: { status: shoe.status },
          },
          {
            kind: 'check',
            entity: 'table',
            key: { tableId: shoe.tableId },
            expect: { openRoundId: null, currentShoeId: shoe.shoeId },
          },
        ]);
        countDiscard(ctx, discard);
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

async function finishClose(ctx: Ctx, closing: ShoeRecord): Promise<void> {
  // Every receipt is signed before the close: the contributions head, each finished round's head.
  // A shoe whose rounds were all voided has dealt no coup: its beacon round is recorded now, so its
  // order (and what its voided rounds would have dealt) can be revealed like any other.
  const shoe = closing.contributionsClosed ? await shoeWithOrder(ctx, closing) : closing;
  await signContributionsHead(ctx, shoe);
  const rounds = await roundsOfChain(ctx, parseAuditLog(await ctx.store.listAudit(shoe.shoeId)));
  await mapBounded(rounds, ctx.settleConcurrency, (r) => signRoundHead(ctx, r));
  const debts = await ctx.store.listDebts(shoe.shoeId);
  await mapBounded(
    debts.filter((d) => d.owed > 0),
    ctx.settleConcurrency,
    (debt) => collectDebt(ctx, debt, undefined),
  );
  const collected = (await ctx.store.listDebts(shoe.shoeId)).map(commissionRecord);
  // Nothing is signed over a chain that does not hold: re-walk it, and every head signed on it, first.
  const problems = await chainProblemsBeforeClose(ctx, shoe);
  if (problems.length > 0) {
    // Loudly: the table is locked with a TABLE_LOCKED event (and an alarm) until the chain is repaired
    // and the shoe closed, or an admin abandons the shoe.
    const lock = await lockForAudit(ctx, shoe.tableId, shoe.shoeId, problems);
    throw new DomainError(
      'CONFLICT',
      'AUDIT_CHAIN_BROKEN',
      `shoe ${shoe.shoeId} is not closed: its audit chain does not hold: ${problems.slice(0, 5).join('; ')}. Table ${shoe.tableId} is locked (TABLE_LOCKED ${lock.seq}): put the missing items back and close again, or an admin abandons the shoe (POST /v1/shoes/${shoe.shoeId}/abandon)`,
      { problems: problems.slice(0, 20), lock: { source: lock.source, seq: lock.seq, at: lock.at } },
    );
  }
  const serverSeed = await decksOf(ctx).serverSeed(shoe);
  const perCoup = shoe.statement.scheme === SHOE_V3_SCHEME;
  const deck = shoe.entropy && !perCoup ? await decksOf(ctx).order(shoe) : undefined;
  const cutIndex = perCoup ? await drawCutIndex(ctx, shoe) : deck?.cutIndex;
  const voids = shoe.entropy ? await revealedVoids(ctx, shoe, deck) : { count: 0, houseNet: 0 };
  // Certified before the close is dated: a key signs only inside its validity interval.
  const { keyId, validFrom } = (await certifiedKey(ctx)).certificate;
  const record = await nextAudit(
    ctx.store,
    shoe.shoeId,
    'SHOE_CLOSED',
    undefined,
    latest(ctx.now(), validFrom),
    {
      serverSeed: bytesToHex(serverSeed),
      commitment: shoe.commitment,
      cutIndex: cutIndex ?? null,
      rounds: shoe.rounds,
      coups: (perCoup ? shoe.draw?.coups : shoe.state?.coups) ?? 0,
      voids: voids.count,
      // Who paid what stays out of the public chain: only the digest of the collections.
      commission: { digest: saltedDigest(shoe.digestSalt, collected) },
      ...(shoe.closeReason !== undefined && { early: shoe.closeReason }),
    },
  );
  // The close is dated as SHOE_CLOSED (nextAudit keeps the chain's times from going back).
  const closedAt = eventAt(record)!;
  const statement: ShoeCloseStatement = {
    scheme: SHOE_CLOSE_SCHEME,
    shoeId: shoe.shoeId,
    commitment: shoe.commitment,
    head: record.hash,
    length: record.seq + 1,
    closedAt,
    keyId,
  };
  const { signature } = await signCertified(ctx, closeStatementBytes(statement));
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
          cutIndex: cutIndex ?? null,
          close: { statement, signature },
          voids,
        },
        expect: { status: 'CLOSING' },
      },
      putAudit(record),
      {
        kind: 'update',
        entity: 'table',
        key: { tableId: shoe.tableId },
        // The next shoe's statement links to this close.
        set: {
          currentShoeId: null,
          lastShoe: { shoeId: shoe.shoeId, number: shoe.number, closeHead: record.hash },
        },
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
