/**
 * docs/provably-fair.md §10 "Voids revealed", written from the document alone: the walk that gives
 * each voided round's would-be coup, checked against the bundle's void report (`voids.report`) for
 * what needs no tableau — the coup's index, its start and that its cards are the shoe order's from
 * there; and that a shoe already finished has none. The tableau itself (how many cards, the outcome,
 * the house's net) is left to docs/rules.md, as in independent.ts. pyb-shoe/3 (§15.9) has no walk: a
 * void's would-be coup is its burn, or none.
 */
interface Round {
  roundId: string;
  number: number;
  status: 'SETTLED' | 'VOIDED';
  voidReason?: string;
  coup: null | { index?: number; start: number; cards: readonly string[] };
  burned?: { start: number; cards: readonly string[] };
}
export interface VoidEvidence {
  rounds: readonly Round[];
  voids?: {
    count: number;
    rounds: readonly {
      roundId: string;
      number: number;
      reason: string;
      coup: null | { index: number; start: number; cards: readonly string[] };
    }[];
  };
}

/** §7 item 4: a coup (or burn) from `start` of `used` cards is the last one. */
const isLast = (start: number, used: number, cutIndex: number, rule: string) =>
  start + used > cutIndex && (rule === 'FINISH_COUP' || start > cutIndex);

export function independentVoidChecks(
  e: VoidEvidence,
  shoe: { order: readonly string[]; cutIndex: number; firstCoupAt: number },
  afterCutCard: string,
  fail: (id: string) => void,
) {
  if (!e.voids) return;
  const claimed = new Map(e.voids.rounds.map((r) => [r.roundId, r]));
  let cursor = shoe.firstCoupAt;
  let coups = 0;
  let finished = false;
  let voided = 0;
  const wrong = () => fail('voids.report');
  for (const round of [...e.rounds].sort((a, b) => a.number - b.number)) {
    if (round.status === 'SETTLED') {
      if (!round.coup) continue;
      finished = finished || isLast(round.coup.start, round.coup.cards.length, shoe.cutIndex, afterCutCard);
      cursor = round.coup.start + round.coup.cards.length;
      coups += 1;
      continue;
    }
    voided += 1;
    const report = claimed.get(round.roundId);
    if (!report || report.number !== round.number || report.reason !== (round.voidReason ?? '')) wrong();
    const coup = report?.coup ?? null;
    if (finished) {
      if (coup !== null) wrong();
    } else if (
      coup === null ||
      coup.index !== coups ||
      coup.start !== cursor ||
      coup.cards.length < 4 ||
      coup.cards.length > 6 ||
      coup.cards.join() !== shoe.order.slice(cursor, cursor + coup.cards.length).join()
    ) {
      wrong();
    }
    // A burned round's cards leave the shoe after its would-be coup is taken; coups dealt stay.
    if (round.burned && !finished) {
      finished = isLast(round.burned.start, round.burned.cards.length, shoe.cutIndex, afterCutCard);
      cursor = round.burned.start + round.burned.cards.length;
    }
  }
  if (e.voids.count !== voided || e.voids.rounds.length !== voided) wrong();
}

/**
 * §15.9 over a pyb-shoe/3 bundle: a void that burned would have dealt its burned cards (numbered as the
 * next dealt coup, from the burn's start); a void without a burn drew nothing, so it has no coup.
 */
export function independentVoidChecksV3(e: VoidEvidence, fail: (id: string) => void) {
  if (!e.voids) return;
  const claimed = new Map(e.voids.rounds.map((r) => [r.roundId, r]));
  let coups = 0;
  let voided = 0;
  const wrong = () => fail('voids.report');
  for (const round of [...e.rounds].sort((a, b) => a.number - b.number)) {
    if (round.status === 'SETTLED') {
      if (round.coup) coups += 1;
      continue;
    }
    voided += 1;
    const report = claimed.get(round.roundId);
    if (!report || report.number !== round.number || report.reason !== (round.voidReason ?? '')) wrong();
    const coup = report?.coup ?? null;
    const burned = round.burned;
    if (!burned) {
      if (coup !== null) wrong();
    } else if (
      coup === null ||
      coup.index !== coups ||
      coup.start !== burned.start ||
      coup.cards.join() !== burned.cards.join()
    ) {
      wrong();
    }
  }
  if (e.voids.count !== voided || e.voids.rounds.length !== voided) wrong();
}
