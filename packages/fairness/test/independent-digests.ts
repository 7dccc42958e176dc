/**
 * The digests of docs/provably-fair.md §11.1.1–§11.1.2 and the card codes of §11.1, written from the
 * document alone (Node's crypto; no code of packages/fairness or packages/engine): what a bundle lets a
 * regulator check with its salt, and what a proof lets anyone check without it. Part of
 * `independentVerify` (independent.ts); the check names are the ones §13 gives.
 */
import { createHash, createHmac } from 'node:crypto';

/** RFC 8785 for the JSON the records hold (integers, strings, booleans, null, arrays, objects). */
function jcsOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcsOf).join(',')}]`;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${jcsOf(o[k])}`).join(',')}}`;
}

/** §11.1.1: HMAC-SHA256 keyed by the 32 salt bytes (SHA-256 without a salt: an older shoe). */
export function independentDigest(saltHex: string | undefined, records: readonly { id: string }[]): string {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  sorted.forEach((r, i) => {
    if (i > 0 && sorted[i - 1]!.id === r.id) throw new Error(`duplicate id ${r.id}`);
  });
  const message = Buffer.from(jcsOf(sorted), 'utf8');
  if (saltHex === undefined) return createHash('sha256').update(message).digest('hex');
  const salt = Buffer.from(saltHex, 'hex');
  if (salt.length !== 32 || salt.toString('hex') !== saltHex) throw new Error('a salt is 32 bytes of hex');
  return createHmac('sha256', salt).update(message).digest('hex');
}

export const independentNoteDigest = (saltHex: string, note: string): string =>
  createHmac('sha256', Buffer.from(saltHex, 'hex')).update(JSON.stringify(note), 'utf8').digest('hex');

export const independentSaltCommitment = (saltHex: string): string =>
  createHash('sha256').update(Buffer.from(saltHex, 'hex')).digest('hex');

/** §3, §11.1: a card in notation (`TD`, also `10D`) as the code events carry. */
export function cardCode(text: string): number {
  const s = text.trim().toUpperCase();
  const rank = 'A23456789TJQK'.indexOf(
    s.length === 3 && s.startsWith('10') ? 'T' : s.length === 2 ? s[0]! : '?',
  );
  const suit = 'SHDC'.indexOf(s.at(-1) ?? '?');
  if (rank < 0 || suit < 0) throw new Error(`not a card: ${text}`);
  return suit * 13 + rank;
}

interface Position {
  playerId: string;
  bets: unknown;
  stake: number;
  calls: number;
  settlement: unknown;
  ledgerSeq: number | null;
}
interface Round {
  roundId: string;
  number: number;
  status: 'SETTLED' | 'VOIDED';
  coup: null | { cards: readonly string[] };
  burned?: { start: number; cards: readonly string[] };
  voidNote?: string;
  positions?: readonly Position[];
}
export interface DigestEvidence {
  statement: { saltCommitment?: string };
  rounds: readonly Round[];
  digestSalt?: string;
  commission?: readonly { playerId: string; collected: number; owed: number }[];
}
type Event = { type?: unknown; roundId?: unknown; data: Record<string, unknown> };

export function independentDigestChecks(
  e: DigestEvidence,
  events: readonly Event[],
  fail: (id: string) => void,
) {
  const committed = e.statement.saltCommitment;
  const bundle = e.rounds.some((r) => r.positions !== undefined) || e.digestSalt !== undefined;
  // §13: a bundle's salt is the one the statement committed to, and only a salted statement has one.
  if (
    committed === undefined
      ? e.digestSalt !== undefined
      : bundle && (e.digestSalt === undefined || independentSaltCommitment(e.digestSalt) !== committed)
  )
    fail('digests.salt');
  const salt = committed === undefined ? undefined : e.digestSalt;
  const attempt = (id: string, ok: () => boolean) => {
    try {
      if (!ok()) fail(id);
    } catch {
      fail(id);
    }
  };

  for (const round of e.rounds) {
    const own = events.filter((ev) => ev.roundId === round.roundId);
    const find = (type: string) => own.find((ev) => ev.type === type);
    const prefix = `audit.round.${round.number}`;
    // §11.1: the chain's card codes are the round's cards in notation.
    const dealt = find('COUP_DEALT');
    if (round.status === 'SETTLED' && dealt && round.coup)
      attempt(`${prefix}.dealt`, () => jcsOf(dealt.data.cards) === jcsOf(round.coup!.cards.map(cardCode)));
    const voided = find('ROUND_VOIDED');
    const burned = voided?.data.burned as { start?: unknown; cards?: unknown } | undefined;
    if (round.burned || burned)
      attempt(
        `${prefix}.burned`,
        () =>
          round.burned !== undefined &&
          burned !== undefined &&
          burned.start === round.burned.start &&
          jcsOf(burned.cards) === jcsOf(round.burned.cards.map(cardCode)),
      );
    // §11.1.1: a salted shoe's note is in the chain only as its digest; the bundle's note matches it.
    if (committed !== undefined && round.status === 'VOIDED' && voided) {
      const note = voided.data.note;
      const digest = voided.data.noteDigest;
      if (note !== undefined || digest !== undefined || round.voidNote !== undefined)
        attempt(`${prefix}.note`, () => {
          if (note !== undefined) return false;
          if (!bundle) return true;
          return round.voidNote !== undefined && digest === independentNoteDigest(salt ?? '', round.voidNote);
        });
    }
    // §11.1.2: the records of the bundle's positions, digested as §11.1.1 says.
    const positions = round.positions;
    if (!positions) continue;
    const closed = find('BETTING_CLOSED');
    attempt(`${prefix}.bets`, () =>
      closed
        ? closed.data.betsDigest ===
          independentDigest(
            salt,
            positions.map((p) => ({ id: p.playerId, bets: p.bets, stake: p.stake, calls: p.calls })),
          )
        : round.status === 'VOIDED',
    );
    if (round.status === 'SETTLED') {
      const settled = find('ROUND_SETTLED');
      attempt(
        `${prefix}.settlement`,
        () =>
          settled?.data.settlementsDigest ===
          independentDigest(
            salt,
            positions.map((p) => ({
              id: p.playerId,
              stake: p.stake,
              settlement: p.settlement,
              ledgerSeq: p.ledgerSeq,
            })),
          ),
      );
    } else {
      attempt(
        `${prefix}.refunds`,
        () =>
          voided?.data.refundsDigest ===
          independentDigest(
            salt,
            positions.map((p) => ({ id: p.playerId, bets: p.bets, stake: p.stake, ledgerSeq: p.ledgerSeq })),
          ),
      );
    }
  }
  // §11.1.2: SHOE_CLOSED's commission records, in a bundle of a salted shoe.
  if (committed !== undefined && e.commission !== undefined) {
    const closed = events.findLast((ev) => ev.type === 'SHOE_CLOSED');
    attempt(
      'audit.commission',
      () =>
        (closed?.data.commission as { digest?: unknown } | undefined)?.digest ===
        independentDigest(
          salt,
          e.commission!.map((c) => ({ id: c.playerId, collected: c.collected, owed: c.owed })),
        ),
    );
  }
}
