/**
 * What a pyb-shoe/3 chain records besides pyb-shoe/2's (docs/provably-fair.md §15.11): each coup's and
 * burn's beacon round, recorded when drawn and no earlier than its publication, and the shoe's start
 * burn, recorded with the first cards out of the shoe.
 */

import { dataOf, type Event, type Evidence } from './audit-events';
import { type BeaconRound, beaconRandomness, roundTime } from './beacon';
import { canonicalJson } from './canonical';
import type { StatementBeacon } from './statement';
import type { Report } from './verify-report';
import { parseAll } from './verify-rounds';

export const isV3 = (evidence: Evidence) => evidence.statement.scheme === 'pyb-shoe/3';

/**
 * The beacon a COUP_DEALT (or a ROUND_VOIDED's `burned`) recorded against the evidence's, and the
 * event's time against the round's publication: a deal dated before its round was out could not
 * have been drawn from it.
 */
export function beaconRecordProblem(
  network: StatementBeacon,
  event: Event,
  recorded: unknown,
  beacon: BeaconRound | undefined,
): string | undefined {
  if (!beacon) return 'the evidence names no beacon round for it';
  const r = (recorded ?? {}) as Record<string, unknown>;
  if (
    r.round !== beacon.round ||
    r.signature !== beacon.signature ||
    r.randomness !== beaconRandomness(beacon.signature)
  )
    return `the chain recorded beacon round ${String(r.round)} (or another signature or randomness), the evidence ${beacon.round}`;
  const published = roundTime(network, beacon.round) * 1000;
  if (Date.parse(String(event.at)) < published)
    return `recorded at ${String(event.at)}, before round ${beacon.round} was published (${new Date(published).toISOString()})`;
  return undefined;
}

/** `audit.burn`: the start burn the chain recorded with the first cards out of the shoe is the evidence's. */
export function checkStartBurn(report: Report, evidence: Evidence, list: Event[]) {
  const first = list.find(
    (e) => e.type === 'COUP_DEALT' || (e.type === 'ROUND_VOIDED' && dataOf(e).burned !== undefined),
  );
  report.try('audit.burn', () => {
    if (!first) return [true, 'no card left the shoe after its start: no burn to record'];
    const recorded = dataOf(first).burn;
    const { shown, burned, cards } = evidence.burn;
    const expected = { shown: parseAll([shown])[0], burned, cards: parseAll(cards ?? []) };
    return canonicalJson(recorded ?? null) === canonicalJson(expected)
      ? [true, `${shown} shown, burning ${(cards ?? []).join(' ')}: recorded at event ${String(first.seq)}`]
      : [
          false,
          `event ${String(first.seq)} (${String(first.type)}) records another start burn than the evidence`,
        ];
  });
}
