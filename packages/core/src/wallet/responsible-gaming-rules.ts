/**
 * Responsible gaming on a hosted wallet (docs/responsible-gaming.md), pure: the limits, exclusions,
 * counters and table sessions a wallet item carries (`WalletRecord.rg`), how a ledger movement
 * changes them, and the checks a bet must pass. The bet's transaction is conditional on the wallet's
 * sequence number, so a check made here on the wallet as read holds at commit: two bets racing a
 * limit cannot both pass it (the second one re-reads and is checked again).
 *
 * Periods are UTC: the day (YYYY-MM-DD), the ISO week from Monday (`W` + its Monday's date) and the
 * calendar month (YYYY-MM). A counter counts ledger entries by their time `at`:
 *   - wager: stakes taken by BET entries minus those given back by BET_WITHDRAWAL;
 *   - loss:  −(sum of the amounts of BET, BET_WITHDRAWAL, PAYOUT, REFUND and COMMISSION entries):
 *            stakes minus returns, so a bet counts as lost until its return is credited.
 * A bet is refused when the counter after it would pass the limit, so the counter never passes it,
 * even if every open bet loses.
 */
import type { RgLimit } from '@pyb/contracts';
import type { LedgerKind, RgCounter, RgExclusion, RgLimits, RgTableSession, WalletRg } from '../shared';
import { DomainError } from '../shared';

/** AGCO 2.24: a relaxation of a limit takes effect after this delay; a tightening at once. */
const RELAXATION_DELAY_MS = 24 * 3_600_000;
export const DEFAULT_SESSION_TIMEOUT_MINUTES = 20;
/** Ended sessions are kept on the wallet this long (reality checks); their ids stay in the ledger. */
const ENDED_SESSION_KEPT_MS = 24 * 3_600_000;

// ---- periods and counters -------------------------------------------------------------------------

export function periodsOf(at: string): { day: string; week: string; month: string } {
  const d = new Date(at);
  const day = d.toISOString().slice(0, 10);
  const monday = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return { day, week: `W${monday.toISOString().slice(0, 10)}`, month: day.slice(0, 7) };
}

const PERIODS = ['day', 'week', 'month'] as const;
type Period = (typeof PERIODS)[number];

/** The counters of the periods `at` falls in (a counter of an earlier period reads as zero). */
export function countersAt(rg: WalletRg | undefined, at: string): Record<Period, RgCounter> {
  const now = periodsOf(at);
  const of = (period: Period): RgCounter => {
    const c = rg?.[period];
    return c && c.p === now[period] ? c : { p: now[period], wager: 0, loss: 0 };
  };
  return { day: of('day'), week: of('week'), month: of('month') };
}

const GAME_KINDS: readonly LedgerKind[] = ['BET', 'BET_WITHDRAWAL', 'PAYOUT', 'REFUND', 'COMMISSION'];
const STAKE_KINDS: readonly LedgerKind[] = ['BET', 'BET_WITHDRAWAL'];

export interface Counted {
  kind: LedgerKind;
  amount: number;
  at: string;
  tableId?: string;
  sessionId?: string;
}

/**
 * The wallet's responsible-gaming state after a ledger movement: the period counters and its session's
 * result move with game entries; due relaxations are applied and old sessions dropped on the way.
 */
export function countMovement(rg: WalletRg | undefined, m: Counted): WalletRg {
  const next: WalletRg = tidy(rg, m.at);
  if (!GAME_KINDS.includes(m.kind) || m.amount === 0) return next;
  const staked = STAKE_KINDS.includes(m.kind) ? -m.amount : 0;
  const counters = countersAt(next, m.at);
  for (const period of PERIODS) {
    const c = counters[period];
    next[period] = { p: c.p, wager: c.wager + staked, loss: c.loss - m.amount };
  }
  const session = m.tableId ? next.sessions?.[m.tableId] : undefined;
  if (session && m.sessionId === session.id && next.sessions && m.tableId) {
    next.sessions = {
      ...next.sessions,
      [m.tableId]: { ...session, staked: session.staked + staked, net: session.net + m.amount },
    };
  }
  return next;
}

/** Due relaxations moved into the limits; sessions ended long ago dropped. */
function tidy(rg: WalletRg | undefined, at: string): WalletRg {
  const next: WalletRg = { ...rg };
  if (rg?.pending) {
    const limits = { ...rg.limits };
    const pending = { ...rg.pending };
    for (const [name, p] of Object.entries(rg.pending) as [RgLimit, { value: number | null; at: string }][]) {
      if (p.at > at) continue;
      if (p.value === null) delete limits[name];
      else limits[name] = p.value;
      delete pending[name];
    }
    next.limits = limits;
    if (Object.keys(pending).length) next.pending = pending;
    else delete next.pending;
  }
  if (rg?.exclusion?.until && rg.exclusion.until <= at) delete next.exclusion;
  if (rg?.sessions) {
    const timeout = timeoutMs(rg);
    next.sessions = Object.fromEntries(
      Object.entries(rg.sessions).filter(
        ([, s]) => Date.parse(sessionEnd(s, timeout) ?? at) + ENDED_SESSION_KEPT_MS > Date.parse(at),
      ),
    );
  }
  return next;
}

// ---- limits in force ------------------------------------------------------------------------------

export const limitsAt = (rg: WalletRg | undefined, at: string): RgLimits => tidy(rg, at).limits ?? {};

export const tidyPending = (
  rg: WalletRg | undefined,
  at: string,
): Partial<Record<RgLimit, { value: number | null; at: string }>> => tidy(rg, at).pending ?? {};

export const exclusionAt = (rg: WalletRg | undefined, at: string): RgExclusion | undefined =>
  tidy(rg, at).exclusion;

const timeoutMs = (rg: WalletRg | undefined): number =>
  (rg?.timeoutMinutes ?? DEFAULT_SESSION_TIMEOUT_MINUTES) * 60_000;

/** When a session ended (left, or its time-out after the last bet), or undefined while it runs. */
function sessionEnd(s: RgTableSession, timeout: number, at?: string): string | undefined {
  if (s.endedAt) return s.endedAt;
  const idle = new Date(Date.parse(s.lastAt) + timeout).toISOString();
  return at === undefined || idle <= at ? idle : undefined;
}

export const sessionEndedAt = (rg: WalletRg | undefined, s: RgTableSession, at: string): string | undefined =>
  sessionEnd(s, timeoutMs(rg), at);

// ---- a bet -------------------------------------------------------------------------------------------

export interface BetCheck {
  tableId: string;
  at: string;
  /** The position's stake after the call (stake per round). */
  stake: number;
  /** What the call adds to the stake (negative for a reduction). */
  added: number;
  /** A new session id, used if the bet opens one. */
  newSessionId: () => string;
}

const refuse = (
  code: 'PLAYER_EXCLUDED' | 'RG_LIMIT_REACHED',
  message: string,
  details: Record<string, unknown>,
) => new DomainError('UNPROCESSABLE', code, message, details);

/**
 * A bet (or raise) against the player's controls; throws the refusal. Returns the wallet's state with
 * the table session the bet belongs to (opened, or its activity recorded) and that session's id.
 * A reduction or withdrawal is never refused (it only lowers what is at risk).
 */
export function checkBet(
  rg: WalletRg | undefined,
  bet: BetCheck,
): { rg: WalletRg; sessionId: string; realityCheck?: RealityCheck } {
  const next = tidy(rg, bet.at);
  const limits = next.limits ?? {};
  const sessions = { ...next.sessions };
  const current = sessions[bet.tableId];
  const running = current && !sessionEnd(current, timeoutMs(next), bet.at) ? current : undefined;
  if (bet.added > 0) {
    const ex = next.exclusion;
    if (ex) {
      throw refuse(
        'PLAYER_EXCLUDED',
        ex.kind === 'SELF_EXCLUSION' ? 'the player is self-excluded' : 'the player is cooling off',
        { exclusion: ex.kind, until: ex.until },
      );
    }
    const over = (limit: RgLimit, used: number) => {
      const value = limits[limit];
      if (value !== undefined && used > value) {
        throw refuse('RG_LIMIT_REACHED', `the bet would pass the player's ${limit} limit (${value})`, {
          limit,
          value,
          used: used - Math.max(0, bet.added),
        });
      }
    };
    over('stakePerRound', bet.stake);
    const c = countersAt(next, bet.at);
    over('lossDay', c.day.loss + bet.added);
    over('lossWeek', c.week.loss + bet.added);
    over('lossMonth', c.month.loss + bet.added);
    over('wagerDay', c.day.wager + bet.added);
    over('wagerWeek', c.week.wager + bet.added);
    over('wagerMonth', c.month.wager + bet.added);
    const minutes = limits.sessionMinutes;
    if (
      running &&
      minutes !== undefined &&
      Date.parse(bet.at) - Date.parse(running.startedAt) >= minutes * 60_000
    ) {
      throw refuse('RG_LIMIT_REACHED', `the session passed the player's sessionMinutes limit (${minutes})`, {
        limit: 'sessionMinutes',
        value: minutes,
        used: Math.floor((Date.parse(bet.at) - Date.parse(running.startedAt)) / 60_000),
      });
    }
  }
  const session: RgTableSession = running
    ? { ...running, lastAt: bet.at }
    : { id: bet.newSessionId(), startedAt: bet.at, lastAt: bet.at, staked: 0, net: 0 };
  // The reality check: due once per interval of play, on the first bet after it (the bet's answer
  // carries it; the count on the session keeps it from being shown twice).
  const interval = next.realityCheckMinutes;
  const played = Date.parse(bet.at) - Date.parse(session.startedAt);
  const due = interval === undefined ? 0 : Math.floor(played / (interval * 60_000));
  let realityCheck: RealityCheck | undefined;
  if (due > (session.checks ?? 0)) {
    session.checks = due;
    realityCheck = {
      sessionId: session.id,
      minutesPlayed: Math.floor(played / 60_000),
      staked: session.staked,
      net: session.net,
    };
  }
  sessions[bet.tableId] = session;
  return { rg: { ...next, sessions }, sessionId: session.id, ...(realityCheck && { realityCheck }) };
}

/** What a reality check shows: the session's time played, stakes and net result so far. */
export interface RealityCheck {
  sessionId: string;
  minutesPlayed: number;
  staked: number;
  net: number;
}

/** The player left the table: his session there ends now (undefined: none was running). */
export function endSession(rg: WalletRg | undefined, tableId: string, at: string): WalletRg | undefined {
  const next = tidy(rg, at);
  const s = next.sessions?.[tableId];
  if (!s || sessionEnd(s, timeoutMs(next), at)) return undefined;
  return { ...next, sessions: { ...next.sessions, [tableId]: { ...s, endedAt: at } } };
}

// ---- the operator's changes -------------------------------------------------------------------------

export interface RgSettings {
  limits?: Partial<Record<RgLimit, number | null>>;
  exclusion?: { kind: RgExclusion['kind']; until: string | null };
  sessionTimeoutMinutes?: number;
  /** null: no reality check. */
  realityCheckMinutes?: number | null;
}

/**
 * The state after the operator's change, made at `at`: a tighter limit (lower, or new) applies at
 * once and drops a pending relaxation of it; a looser one (higher, or removed) waits 24 hours. An
 * exclusion can be started or extended, never shortened or lifted before it ends.
 */
export function applySettings(rg: WalletRg | undefined, settings: RgSettings, at: string): WalletRg {
  const next = tidy(rg, at);
  const limits = { ...next.limits };
  const pending = { ...next.pending };
  const effectiveAt = new Date(Date.parse(at) + RELAXATION_DELAY_MS).toISOString();
  for (const [name, value] of Object.entries(settings.limits ?? {}) as [
    RgLimit,
    number | null | undefined,
  ][]) {
    if (value === undefined) continue;
    const now = limits[name];
    if (value !== null && (now === undefined || value <= now)) {
      limits[name] = value;
      delete pending[name];
    } else if (!(value === null && now === undefined)) {
      pending[name] = { value, at: effectiveAt };
    } else {
      delete pending[name];
    }
  }
  next.limits = limits;
  if (Object.keys(pending).length) next.pending = pending;
  else delete next.pending;
  if (settings.exclusion) {
    const { kind, until } = settings.exclusion;
    if (kind === 'COOLING_OFF' && until === null) {
      throw new DomainError('INVALID', 'INVALID_INPUT', 'a cooling-off period has an end (`until`)');
    }
    if (until !== null && until <= at) {
      throw new DomainError('INVALID', 'INVALID_INPUT', 'an exclusion ends in the future (`until`)');
    }
    const held = next.exclusion;
    if (held && (held.until === null || (until !== null && until < held.until))) {
      throw new DomainError(
        'CONFLICT',
        'EXCLUSION_ACTIVE',
        `an exclusion runs until ${held.until ?? 'revoked never'}: it can be extended, not shortened`,
      );
    }
    next.exclusion = {
      kind: held && kind === 'COOLING_OFF' ? held.kind : kind,
      since: held?.since ?? at,
      until,
    };
  }
  if (settings.sessionTimeoutMinutes !== undefined) next.timeoutMinutes = settings.sessionTimeoutMinutes;
  if (settings.realityCheckMinutes === null) delete next.realityCheckMinutes;
  else if (settings.realityCheckMinutes !== undefined)
    next.realityCheckMinutes = settings.realityCheckMinutes;
  return next;
}
