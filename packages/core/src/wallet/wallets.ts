/** Operator credits and debits (idempotent by the client's key), balances, ledger pages. */
import { PAGE_DEFAULT_LIMIT, PAGE_MAX_LIMIT } from '@pyb/contracts';
import type {
  Actor,
  LedgerPageView,
  LedgerQuery,
  WalletRef,
  WalletTransactionInput,
  WalletTransactionResult,
  WalletView,
} from '../shared';
import {
  actsFor,
  attempts,
  backoff,
  checkAmount,
  checkCurrency,
  checkIdempotencyKey,
  checkPlayerId,
  checkText,
  clientKey,
  DomainError,
  invalid,
  keyReused,
  ledgerEntryView,
  notFound,
  requestHash,
  TransactionCanceled,
  tooMuchContention,
  walletOperator,
  walletView,
} from '../shared';
import type { WalletCtx } from './ctx';
import { type MovementPlan, newWallet, planMovement } from './wallet-ledger';

export async function walletTransaction(
  ctx: WalletCtx,
  actor: Actor,
  input: WalletTransactionInput,
): Promise<WalletTransactionResult> {
  const operatorId = walletOperator(actor, undefined, 'write');
  const playerId = checkPlayerId(input.playerId);
  const amount = checkAmount('amount', input.amount);
  const idempotencyKey = checkIdempotencyKey(input.idempotencyKey);
  if (input.type !== 'CREDIT' && input.type !== 'DEBIT')
    throw invalid('INVALID_INPUT', 'type must be CREDIT or DEBIT');
  checkCurrency(input.currency);
  if (input.reference !== undefined) checkText('reference', input.reference, 128);
  const key = clientKey(idempotencyKey);
  const hash = requestHash('wallet', {
    type: input.type,
    amount,
    currency: input.currency,
    reference: input.reference ?? null,
  });
  for (const attempt of attempts(ctx)) {
    const used = await ctx.store.get('ledger', { operatorId, playerId, key });
    if (used) {
      if (used.requestHash !== hash) throw keyReused();
      const wallet = (await ctx.store.get('wallet', { operatorId, playerId }))!;
      return { entry: ledgerEntryView(used), wallet: walletView(wallet), replayed: true };
    }
    const existing = await ctx.store.get('wallet', { operatorId, playerId });
    if (!existing && input.type === 'DEBIT') throw notFound('wallet', playerId);
    const at = ctx.now();
    const wallet = existing ?? newWallet(operatorId, playerId, input.currency, at);
    if (wallet.currency !== input.currency) {
      throw new DomainError('UNPROCESSABLE', 'CURRENCY_MISMATCH', `the wallet is in ${wallet.currency}`);
    }
    let plan: MovementPlan;
    try {
      plan = planMovement(
        wallet,
        {
          kind: input.type,
          key,
          requestHash: hash,
          amount: input.type === 'CREDIT' ? amount : -amount,
          ...(input.reference !== undefined && { reference: input.reference }),
          at,
        },
        !existing,
      );
    } catch (error) {
      // The wallet was read after a concurrent call with this key committed: replay that call instead.
      if (await ctx.store.get('ledger', { operatorId, playerId, key })) continue;
      throw error;
    }
    try {
      await ctx.store.transact(plan.ops);
      return { entry: ledgerEntryView(plan.entry), wallet: walletView(plan.wallet), replayed: false };
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      if (!error.failed(1)) await backoff(attempt);
    }
  }
  throw tooMuchContention('moving money');
}

export async function getWallet(ctx: WalletCtx, actor: Actor, input: WalletRef): Promise<WalletView> {
  const operatorId = walletOperator(actor, input.operatorId, 'read');
  const playerId = checkPlayerId(input.playerId);
  actsFor(actor, playerId);
  const wallet = await ctx.store.get('wallet', { operatorId, playerId });
  if (!wallet) throw notFound('wallet', playerId);
  return walletView(wallet);
}

const pageLimit = (limit: number | undefined): number => {
  if (limit === undefined) return PAGE_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX_LIMIT)
    throw invalid('INVALID_INPUT', `limit must be 1-${PAGE_MAX_LIMIT}`);
  return limit;
};

/** Newest first. */
export async function getLedger(ctx: WalletCtx, actor: Actor, input: LedgerQuery): Promise<LedgerPageView> {
  const operatorId = walletOperator(actor, input.operatorId, 'read');
  const playerId = checkPlayerId(input.playerId);
  const limit = pageLimit(input.limit);
  const wallet = await ctx.store.get('wallet', { operatorId, playerId });
  if (!wallet) throw notFound('wallet', playerId);
  const page = await ctx.store.listLedger(operatorId, playerId, {
    limit,
    order: 'desc',
    ...(input.cursor !== undefined && { cursor: input.cursor }),
  });
  return { entries: page.items.map(ledgerEntryView), nextCursor: page.cursor ?? null };
}
