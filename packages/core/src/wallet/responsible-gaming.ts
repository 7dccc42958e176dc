/**
 * The operator's responsible-gaming controls of a player's hosted wallet (docs/responsible-gaming.md):
 * set (recorded as an RG_SETTINGS ledger entry of amount 0, in the transaction that changes the wallet)
 * and read (limits in force, pending relaxations, exclusion, counters, sessions for reality checks).
 */
import { RG_LIMITS, type RgLimit } from '@pyb/contracts';
import type { Actor, RgSettingsInput, RgStatusView, WalletRecord, WalletRg } from '../shared';
import {
  attempts,
  backoff,
  checkIdempotencyKey,
  checkPlayerId,
  clientKey,
  invalid,
  keyReused,
  notFound,
  requestHash,
  sessionEndKey,
  TransactionCanceled,
  tooMuchContention,
  walletOperator,
} from '../shared';
import type { WalletCtx } from './ctx';
import {
  applySettings,
  countersAt,
  DEFAULT_SESSION_TIMEOUT_MINUTES,
  endSession,
  exclusionAt,
  limitsAt,
  type RgSettings,
  sessionEndedAt,
  tidyPending,
} from './responsible-gaming-rules';
import { planMovement } from './wallet-ledger';

/** The settings as the use case takes them, checked again (it is called by more than the handler). */
function checkSettings(input: RgSettingsInput): RgSettings {
  const settings: RgSettings = {};
  if (input.limits !== undefined) {
    const limits: Partial<Record<RgLimit, number | null>> = {};
    for (const [name, value] of Object.entries(input.limits)) {
      if (!RG_LIMITS.includes(name as RgLimit)) throw invalid('INVALID_INPUT', `unknown limit ${name}`);
      if (value === undefined) continue;
      if (value !== null && (!Number.isSafeInteger(value) || value < 1)) {
        throw invalid('INVALID_INPUT', `${name} is a positive integer, or null to remove it`);
      }
      limits[name as RgLimit] = value;
    }
    settings.limits = limits;
  }
  if (input.exclusion !== undefined) {
    const { kind, until } = input.exclusion;
    if (kind !== 'SELF_EXCLUSION' && kind !== 'COOLING_OFF') {
      throw invalid('INVALID_INPUT', 'exclusion.kind is SELF_EXCLUSION or COOLING_OFF');
    }
    if (until !== null && (typeof until !== 'string' || Number.isNaN(Date.parse(until)))) {
      throw invalid('INVALID_INPUT', 'exclusion.until is a timestamp or null');
    }
    settings.exclusion = { kind, until: until === null ? null : new Date(until).toISOString() };
  }
  if (input.sessionTimeoutMinutes !== undefined) {
    const m = input.sessionTimeoutMinutes;
    if (!Number.isSafeInteger(m) || m < 1 || m > 1_440) {
      throw invalid('INVALID_INPUT', 'sessionTimeoutMinutes is 1-1440');
    }
    settings.sessionTimeoutMinutes = m;
  }
  if (input.realityCheckMinutes !== undefined) {
    const m = input.realityCheckMinutes;
    if (m !== null && (!Number.isSafeInteger(m) || m < 1 || m > 1_440)) {
      throw invalid('INVALID_INPUT', 'realityCheckMinutes is 1-1440 or null');
    }
    settings.realityCheckMinutes = m;
  }
  return settings;
}

/** What the change did, in the entry's `reference` (the entry is hashed into the wallet's chain). */
function describe(before: WalletRg | undefined, after: WalletRg, at: string): string {
  const parts: string[] = [];
  for (const name of RG_LIMITS) {
    const was = before?.limits?.[name] ?? null;
    const now = after.limits?.[name] ?? null;
    if (was !== now) parts.push(`${name}=${now}`);
    const pending = after.pending?.[name];
    if (pending && pending.at > at && before?.pending?.[name]?.at !== pending.at) {
      parts.push(`${name}=${pending.value}@${pending.at}`);
    }
  }
  const ex = after.exclusion;
  if (ex && (ex.until !== before?.exclusion?.until || ex.kind !== before?.exclusion?.kind)) {
    parts.push(`${ex.kind}<${ex.until ?? 'indefinite'}`);
  }
  if (after.timeoutMinutes !== before?.timeoutMinutes)
    parts.push(`sessionTimeoutMinutes=${after.timeoutMinutes}`);
  if (after.realityCheckMinutes !== before?.realityCheckMinutes)
    parts.push(`realityCheckMinutes=${after.realityCheckMinutes ?? 'none'}`);
  return parts.join(';') || 'no change';
}

function rgStatusView(wallet: WalletRecord, at: string): RgStatusView {
  const rg = wallet.rg;
  const counters = countersAt(rg, at);
  const view = (c: { p: string; wager: number; loss: number }) => ({
    period: c.p,
    wager: c.wager,
    loss: c.loss,
  });
  const ex = exclusionAt(rg, at);
  return {
    playerId: wallet.playerId,
    currency: wallet.currency,
    limits: limitsAt(rg, at),
    pending: Object.entries(tidyPending(rg, at)).map(([limit, p]) => ({
      limit: limit as RgLimit,
      value: p.value,
      effectiveAt: p.at,
    })),
    exclusion: ex ? { kind: ex.kind, since: ex.since, until: ex.until } : null,
    sessionTimeoutMinutes: rg?.timeoutMinutes ?? DEFAULT_SESSION_TIMEOUT_MINUTES,
    ...(rg?.realityCheckMinutes !== undefined && { realityCheckMinutes: rg.realityCheckMinutes }),
    counters: { day: view(counters.day), week: view(counters.week), month: view(counters.month) },
    sessions: Object.entries(rg?.sessions ?? {}).map(([tableId, s]) => {
      const endedAt = sessionEndedAt(rg, s, at) ?? null;
      return {
        sessionId: s.id,
        tableId,
        startedAt: s.startedAt,
        lastActivityAt: s.lastAt,
        endedAt,
        minutesPlayed: Math.floor((Date.parse(endedAt ?? at) - Date.parse(s.startedAt)) / 60_000),
        staked: s.staked,
        net: s.net,
      };
    }),
  };
}

/** Sets limits, an exclusion or the session time-out; idempotent on the client's key. */
export async function setResponsibleGaming(
  ctx: WalletCtx,
  actor: Actor,
  input: RgSettingsInput & { playerId: string; idempotencyKey: string },
): Promise<RgStatusView & { replayed: boolean }> {
  const operatorId = walletOperator(actor, undefined, 'write');
  const playerId = checkPlayerId(input.playerId);
  const key = clientKey(checkIdempotencyKey(input.idempotencyKey));
  const settings = checkSettings(input);
  const hash = requestHash('rg', settings);
  for (const attempt of attempts(ctx)) {
    const [used, wallet] = await Promise.all([
      ctx.store.get('ledger', { operatorId, playerId, key }),
      ctx.store.get('wallet', { operatorId, playerId }),
    ]);
    if (!wallet) throw notFound('wallet', playerId);
    if (used) {
      if (used.requestHash !== hash || used.kind !== 'RG_SETTINGS') throw keyReused();
      return { ...rgStatusView(wallet, ctx.now()), replayed: true };
    }
    const at = ctx.now();
    const rg = applySettings(wallet.rg, settings, at);
    const plan = planMovement(wallet, {
      kind: 'RG_SETTINGS',
      key,
      requestHash: hash,
      amount: 0,
      reference: describe(wallet.rg, rg, at),
      rg,
      at,
    });
    try {
      await ctx.store.transact(plan.ops);
      return { ...rgStatusView(plan.wallet, at), replayed: false };
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      if (!error.failed(1)) await backoff(attempt);
    }
  }
  throw tooMuchContention('changing the limits');
}

export async function getResponsibleGaming(
  ctx: WalletCtx,
  actor: Actor,
  input: { playerId: string },
): Promise<RgStatusView> {
  const operatorId = walletOperator(actor, undefined, 'read');
  const playerId = checkPlayerId(input.playerId);
  const wallet = await ctx.store.get('wallet', { operatorId, playerId });
  if (!wallet) throw notFound('wallet', playerId);
  return rgStatusView(wallet, ctx.now());
}

/**
 * The player left the table: his session there ends, recorded as a SESSION_END entry of amount 0
 * (idempotent on the session id). Nothing happens when no session of his runs at the table.
 */
export async function closeTableSession(
  ctx: WalletCtx,
  wallet: WalletRecord,
  tableId: string,
): Promise<WalletRecord> {
  let current = wallet;
  for (const attempt of attempts(ctx)) {
    const at = ctx.now();
    const rg = endSession(current.rg, tableId, at);
    if (!rg) return current;
    const sessionId = rg.sessions?.[tableId]?.id as string;
    const plan = planMovement(current, {
      kind: 'SESSION_END',
      key: sessionEndKey(sessionId),
      requestHash: requestHash('session-end', { tableId, sessionId }),
      amount: 0,
      tableId,
      sessionId,
      rg,
      at,
    });
    try {
      await ctx.store.transact(plan.ops);
      return plan.wallet;
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      if (error.failed(1)) return current; // ended by a concurrent leave
      await backoff(attempt);
      const again = await ctx.store.get('wallet', {
        operatorId: wallet.operatorId,
        playerId: wallet.playerId,
      });
      if (!again) return current;
      current = again;
    }
  }
  throw tooMuchContention('ending the session');
}
