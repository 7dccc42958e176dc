/**
 * What the demo builder (demo.ts) and its pyb-shoe/3 rounds (demo-v3.ts) share: the bets each round
 * takes, a void's note and a player's leaving (salted or not), and what a shoe's play gets from the
 * builder and gives back.
 */
import type { BaseBetType, BetType, TableConfig } from '@pyb/engine';
import type { BeaconNetwork } from '../src/beacon';
import type { RecordedRound, ShoeBundle, VoidReport } from '../src/bundle';
import type { EntropyInputs } from '../src/entropy';
import type { SignedHeadEvent } from '../src/heads';
import { collectionRecord, noteDigest, saltedDigest } from '../src/salted';

export interface DemoForge {
  /** Seconds betting on round `n` closes later than honestly (so it names a later beacon round). */
  lateSeconds?: (n: number) => number;
  /** The beacon round round `n`'s cards are drawn from instead of the one its betting close named. */
  drawRound?: (n: number, named: number) => number;
}

/** A player who leaves after round `afterRound`, paying his deferred commission (PLAYER_LEFT). */
export interface DemoLeaving {
  afterRound: number;
  playerId: string;
  commission: number;
  ledgerSeq: number;
}

/** The part of DemoBundleInput a shoe's play reads. */
export interface PlayInput {
  serverSeed: Uint8Array;
  shoeId: string;
  tableId: string;
  table: TableConfig;
  createdAt: string;
  beacon: { network: BeaconNetwork; marginSeconds: number; sign?: (round: number) => string };
  rounds: number;
  voided?: readonly number[];
  burned?: readonly number[];
  forge?: DemoForge;
  digestSalt?: string;
  voidNote?: string;
  leaving?: DemoLeaving;
}

/** What the demo's shoe play gets: the input, the chain's writers and its clock. */
export interface PlayContext {
  input: PlayInput;
  entropyInputs: EntropyInputs;
  append: (type: string, roundId: string | undefined, data: Record<string, unknown>) => { at: string };
  signHead: (type: SignedHeadEvent, roundId: string | null) => Promise<void>;
  /** Moves the chain's clock to `ms` (Unix ms) if it is earlier. */
  waitUntil: (ms: number) => void;
  /** The time (Unix ms) the next event will be dated. */
  now: () => number;
}

/** What it played: the rounds, the void report, and the shoe's start as the bundle records it. */
export interface Played {
  rounds: RecordedRound[];
  voids: VoidReport;
  cutIndex: number;
  burn: ShoeBundle['burn'];
  coups: number;
}

/**
 * Deterministic bets for round n: Punto; Banca with a tie; a tie alone; and, where the table offers
 * side bets, a fourth player on every one of them. Within the table limits.
 */
export function demoBets(
  table: TableConfig,
  n: number,
): { playerId: string; bets: Partial<Record<BetType, number>> }[] {
  const stake = (type: BaseBetType, k: number) => {
    const { min, max } = table.limits[type];
    return Math.min(max, min * (1 + ((n * 7 + k * 3) % 5)));
  };
  return [
    { playerId: 'player-1', bets: { PLAYER: stake('PLAYER', 1) } },
    { playerId: 'player-2', bets: { BANKER: stake('BANKER', 2), TIE: stake('TIE', 2) } },
    { playerId: 'player-3', bets: { TIE: stake('TIE', 3) } },
    ...(table.sideBets
      ? [
          {
            playerId: 'player-4',
            bets: Object.fromEntries(
              Object.entries(table.sideBets).map(([type, { limit }], k) => [
                type,
                Math.min(limit.max, limit.min * (1 + ((n + k) % 3))),
              ]),
            ),
          },
        ]
      : []),
  ];
}

/**
 * A void's note as the platform writes it (core rounds/void-note.ts): in a salted shoe ROUND_VOIDED
 * holds only its digest and the bundle's round the note; an older shoe keeps it in clear.
 */
export function demoVoidNote(input: PlayInput): {
  event: { note?: string; noteDigest?: string };
  round: { voidNote?: string };
} {
  const note = input.voidNote;
  if (note === undefined) return { event: {}, round: {} };
  const salt = input.digestSalt;
  return {
    event: salt === undefined ? { note } : { noteDigest: noteDigest(salt, note) },
    round: { voidNote: note },
  };
}

/** PLAYER_LEFT after round `n`, if the input's player leaves then: who and how much only by a digest. */
export function demoLeaves(ctx: PlayContext, n: number): void {
  const { leaving } = ctx.input;
  if (leaving?.afterRound !== n) return;
  ctx.append('PLAYER_LEFT', undefined, {
    tableId: ctx.input.tableId,
    collectionDigest: saltedDigest(ctx.input.digestSalt, [collectionRecord(leaving)]),
  });
}
