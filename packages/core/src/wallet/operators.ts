/**
 * An operator's record: its wallet mode (docs/seamless-wallet.md §10). Read through a per-process cache
 * (OPERATOR_TTL_MS), absent records included, so a hosted bet pays no read for it in the steady state.
 * Set by a platform-admin key only (the route, scripts/provision, the dev seed), each change recorded
 * in the audit table in the same transaction (who, when, old → new).
 */
import { ID_GRAMMAR, OPERATOR_ID_PATTERN, WALLET_MODES } from '@pyb/contracts';
import type {
  OperatorEventRecord,
  OperatorRecord,
  OperatorWalletInput,
  OperatorWalletState,
  OperatorWalletView,
} from '../shared';
import {
  type Actor,
  attempts,
  backoff,
  type Ctx,
  canRead,
  DomainError,
  isPlatformAdmin,
  notFound,
  OPERATOR_TTL_MS,
  operatorTables,
  sumOf,
  TransactionCanceled,
  tooMuchContention,
} from '../shared';
import type { WalletCtx } from './ctx';
import { NAMED_MAX, SWITCH_PENDING_WALK_MAX, WALLET_MODE_RULES, walletModeOf } from './wallet-modes';

export async function operatorOf(
  ctx: Pick<Ctx, 'store' | 'clock' | 'operators'>,
  operatorId: string,
): Promise<OperatorRecord | undefined> {
  const now = ctx.clock.now().getTime();
  const hit = ctx.operators.get(operatorId);
  if (hit && hit.until > now) return hit.record;
  const record = await ctx.store.get('operator', { operatorId }, { consistent: false });
  ctx.operators.set(operatorId, { record, until: now + OPERATOR_TTL_MS });
  return record;
}

function requirePlatformAdmin(actor: Actor): void {
  if (!isPlatformAdmin(actor))
    throw new DomainError(
      'FORBIDDEN',
      'PLATFORM_ADMIN_REQUIRED',
      "only a platform-admin key may change an operator's wallet mode",
    );
}

function readable(actor: Actor, operatorId: string): void {
  if (!isPlatformAdmin(actor) && !canRead(actor, operatorId)) throw notFound('operator', operatorId);
}

const stateOf = (record: OperatorRecord | undefined): OperatorWalletState => ({
  walletMode: record?.walletMode ?? 'hosted',
  ...(record?.seamless && { seamless: record.seamless }),
});

const sameState = (a: OperatorWalletState, b: OperatorWalletState): boolean =>
  a.walletMode === b.walletMode &&
  a.seamless?.baseUrl === b.seamless?.baseUrl &&
  a.seamless?.secretRef === b.seamless?.secretRef;

/**
 * What a change of mode must not cut through (docs/seamless-wallet.md §10): a round holding bets (its
 * positions would settle in one mode while the operator's books moved to the other), and, leaving
 * seamless, a recent seamless transaction not final (the operator's wallet still owes an answer).
 */
async function assertQuiet(ctx: WalletCtx, operatorId: string, leaving: OperatorWalletState): Promise<void> {
  const rounds: string[] = [];
  for await (const table of operatorTables(ctx, operatorId)) {
    if (!table.openRoundId) continue;
    const positions = await ctx.store.listPositions(table.openRoundId);
    if (positions.some((p) => !p.settledAt && !p.refundedAt && sumOf(p.bets) > 0))
      rounds.push(table.openRoundId);
    if (rounds.length >= NAMED_MAX) break;
  }
  const { pending, more } = await walletModeOf(leaving).unfinished(ctx, operatorId);
  if (more && pending.length === 0)
    throw new DomainError(
      'CONFLICT',
      'OPERATOR_WALLET_BUSY',
      `more than ${SWITCH_PENDING_WALK_MAX} seamless transactions in the last 24 hours: stop play and switch once the operator is quiet`,
      { rounds, pendingTransactions: pending },
    );
  if (rounds.length > 0 || pending.length > 0)
    throw new DomainError(
      'CONFLICT',
      'OPERATOR_WALLET_BUSY',
      [
        rounds.length > 0 && `rounds holding bets: ${rounds.join(', ')} (settle or void them first)`,
        pending.length > 0 &&
          `seamless transactions not final: ${pending.join(', ')} (wait for their delivery: docs/seamless-wallet.md §9)`,
      ]
        .filter(Boolean)
        .join('; '),
      { rounds, pendingTransactions: pending },
    );
}

function walletView(
  operatorId: string,
  record: OperatorRecord | undefined,
  events: OperatorEventRecord[],
): OperatorWalletView {
  return {
    operatorId,
    ...stateOf(record),
    updatedAt: record?.updatedAt ?? null,
    effectiveBy: record ? new Date(Date.parse(record.updatedAt) + OPERATOR_TTL_MS).toISOString() : null,
    changes: events.map(({ seq, at, by, from, to }) => ({ seq, at, by, from, to })),
  };
}

/** An operator's wallet mode, its wallet (never the secret: where it is) and every change of them. */
export async function getOperatorWallet(
  ctx: WalletCtx,
  actor: Actor,
  input: { operatorId: string },
): Promise<OperatorWalletView> {
  readable(actor, input.operatorId);
  const [record, events] = await Promise.all([
    ctx.store.get('operator', { operatorId: input.operatorId }),
    ctx.store.listOperatorEvents(input.operatorId),
  ]);
  return walletView(input.operatorId, record, events);
}

/**
 * Sets an operator's wallet mode (and wallet). Idempotent by content: the mode and wallet it already
 * has change nothing. Leaving seamless keeps the wallet on the record: credits and rollbacks of the
 * seamless time still pending (or written by a container that had not seen the switch yet) are
 * delivered to it. Containers see the change within OPERATOR_TTL_MS; this process at once.
 */
export async function setOperatorWallet(
  ctx: WalletCtx,
  actor: Actor,
  input: OperatorWalletInput,
): Promise<OperatorWalletView> {
  requirePlatformAdmin(actor);
  if (!WALLET_MODES.includes(input.walletMode))
    throw new DomainError('INVALID', 'INVALID_INPUT', `walletMode is one of ${WALLET_MODES.join(', ')}`);
  const { operatorId } = input;
  if (typeof operatorId !== 'string' || !OPERATOR_ID_PATTERN.test(operatorId))
    throw new DomainError('INVALID', 'OPERATOR_ID_INVALID', `operator ids are ${ID_GRAMMAR.operator}`);
  const target = WALLET_MODE_RULES[input.walletMode].target(operatorId, input);
  for (const attempt of attempts(ctx)) {
    const existing = await ctx.store.get('operator', { operatorId });
    const from = stateOf(existing);
    const to = target(from);
    if (sameState(from, to)) return getOperatorWallet(ctx, actor, { operatorId });
    if (from.walletMode !== to.walletMode) await assertQuiet(ctx, operatorId, from);
    const at = ctx.now();
    const seq = existing?.changes ?? 0;
    const record: OperatorRecord = {
      operatorId,
      ...to,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
      changes: seq + 1,
    };
    const event: OperatorEventRecord = {
      operatorId,
      seq,
      type: 'WALLET_SET',
      at,
      by: { role: actor.role, operatorId: actor.operatorId, ...(actor.keyId && { keyId: actor.keyId }) },
      from,
      to,
    };
    try {
      await ctx.store.transact([
        {
          kind: 'put',
          entity: 'operator',
          key: { operatorId },
          item: record,
          // Written over only as read: two admins (or a provisioning run) do not silently interleave.
          expect: existing ? { updatedAt: existing.updatedAt } : { operatorId: null },
        },
        { kind: 'put', entity: 'operatorEvent', key: { operatorId, seq }, item: event },
      ]);
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      await backoff(attempt); // changed meanwhile: the re-read decides again
      continue;
    }
    ctx.operators.delete(operatorId);
    return getOperatorWallet(ctx, actor, { operatorId });
  }
  throw tooMuchContention("setting the operator's wallet");
}
