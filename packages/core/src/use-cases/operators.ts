/**
 * An operator's record: its wallet mode (docs/seamless-wallet.md). Read through a per-process cache
 * (OPERATOR_TTL_MS), absent records included, so a hosted bet pays no read for it in the steady state.
 */
import { WALLET_MODES } from '@pyb/contracts';
import type { OperatorWalletInput } from '../api';
import { DomainError } from '../errors';
import type { OperatorRecord } from '../model';
import { type Ctx, OPERATOR_TTL_MS } from './context';

export async function operatorOf(ctx: Ctx, operatorId: string): Promise<OperatorRecord | undefined> {
  const now = ctx.clock.now().getTime();
  const hit = ctx.operators.get(operatorId);
  if (hit && hit.until > now) return hit.record;
  const record = await ctx.store.get('operator', { operatorId }, { consistent: false });
  ctx.operators.set(operatorId, { record, until: now + OPERATOR_TTL_MS });
  return record;
}

/**
 * Sets an operator's wallet mode (operator tooling: provisioning, the dev seed; not an API route).
 * Change modes between shoes: a position keeps the mode it was made in.
 */
export async function setOperatorWallet(ctx: Ctx, input: OperatorWalletInput): Promise<OperatorRecord> {
  if (!WALLET_MODES.includes(input.walletMode))
    throw new DomainError('INVALID', 'INVALID_INPUT', `walletMode is one of ${WALLET_MODES.join(', ')}`);
  if (input.walletMode === 'seamless') {
    const { baseUrl, secretRef } = input.seamless ?? {};
    if (typeof baseUrl !== 'string' || !/^https?:\/\/[^\s]+[^/\s]$/.test(baseUrl))
      throw new DomainError('INVALID', 'INVALID_INPUT', 'a seamless operator needs its wallet base URL');
    if (typeof secretRef !== 'string' || secretRef.length === 0)
      throw new DomainError('INVALID', 'INVALID_INPUT', 'a seamless operator needs its secret reference');
  }
  const at = ctx.now();
  const existing = await ctx.store.get('operator', { operatorId: input.operatorId });
  const record: OperatorRecord = {
    operatorId: input.operatorId,
    walletMode: input.walletMode,
    ...(input.walletMode === 'seamless' && input.seamless && { seamless: input.seamless }),
    createdAt: existing?.createdAt ?? at,
    updatedAt: at,
  };
  await ctx.store.transact([
    {
      kind: 'put',
      entity: 'operator',
      key: { operatorId: input.operatorId },
      item: record,
      // Written over only as read (two provisioning runs do not silently interleave).
      expect: existing ? { updatedAt: existing.updatedAt } : { operatorId: null },
    },
  ]);
  ctx.operators.delete(input.operatorId);
  return record;
}
