/** The audit chain's seed contributions (verify-audit.ts): what SEED_CONTRIBUTED recorded, their close, and the beacon round that close chose. */

import { dataOf, type Event, type Evidence } from './audit-events';
import { beaconRoundAfter, roundTime } from './beacon';
import { canonicalJson } from './canonical';
import { contributionsDigest } from './entropy';
import type { Report } from './verify-report';

/** The seeds SEED_CONTRIBUTED recorded, their close, and the beacon round that close chose. */
export function checkContributions(report: Report, evidence: Evidence, list: Event[]) {
  const { statement, contributions, beacon } = evidence;
  const recorded = list.filter((e) => e.type === 'SEED_CONTRIBUTED').map((e) => dataOf(e));
  const closed = list.find((e) => e.type === 'CONTRIBUTIONS_CLOSED');
  report.try('contributions.digest', () => {
    if (!closed) return [false, 'the chain never closed the contributions'];
    if (canonicalJson(recorded) !== canonicalJson(contributions)) {
      return [
        false,
        `the chain recorded ${recorded.length} contribution(s), the evidence lists ${contributions.length} that differ from them`,
      ];
    }
    const digest = contributionsDigest(contributions);
    const data = dataOf(closed);
    if (data.digest !== digest || data.count !== contributions.length) {
      return [
        false,
        `CONTRIBUTIONS_CLOSED committed ${String(data.count)} contribution(s) with digest ${String(data.digest)}; the ${contributions.length} listed give ${digest}`,
      ];
    }
    const kinds = new Map<string, number>();
    for (const c of contributions) kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
    return [
      true,
      `${contributions.length} seed(s) (${
        [...kinds].map(([k, n]) => `${n} ${k.toLowerCase()}`).join(', ') || 'none'
      }) closed at ${String(closed.at)} with digest ${digest}`,
    ];
  });
  report.try('beacon.round', () => {
    if (!closed) return [false, 'no close of contributions to choose a beacon round from'];
    const expected = beaconRoundAfter(statement.beacon, String(closed.at), statement.beacon.marginSeconds);
    const chosen = dataOf(closed).beaconRound;
    if (chosen !== expected || beacon.round !== expected) {
      return [
        false,
        `contributions closed at ${String(closed.at)}: the first round published ${statement.beacon.marginSeconds} s later is ${expected}; the chain chose ${String(chosen)}, the evidence uses ${beacon.round}`,
      ];
    }
    const published = new Date(roundTime(statement.beacon, expected) * 1000).toISOString();
    return [
      true,
      `round ${expected}, published ${published}, the first at least ${statement.beacon.marginSeconds} s after contributions closed at ${String(closed.at)}`,
    ];
  });
  report.try('audit.beacon', () => {
    const event = list.find((e) => e.type === 'BEACON_RECORDED');
    if (!event) return [false, 'the chain never recorded the beacon round'];
    const data = dataOf(event);
    if (
      data.round !== beacon.round ||
      data.signature !== beacon.signature ||
      data.chainHash !== statement.beacon.chainHash
    ) {
      return [false, 'BEACON_RECORDED records another beacon round or signature than the evidence'];
    }
    const published = roundTime(statement.beacon, beacon.round) * 1000;
    if (Date.parse(String(event.at)) < published) {
      return [
        false,
        `BEACON_RECORDED is dated ${String(event.at)}, before round ${beacon.round} was published (${new Date(published).toISOString()})`,
      ];
    }
    return [true, `recorded at ${String(event.at)}, after it was published and before the first coup`];
  });
}
