/**
 * The audit chain of a bundle or proof: links and hashes, sequence numbers, the shoe each event names,
 * the order of the shoe's phases and of each round's events, the contributions and the beacon round
 * it recorded, the digests each round committed, the signed heads and the signed close.
 */
import { verifyChain } from './audit';
import { dataOf, type Event, type Evidence } from './audit-events';
import { phaseProblems, roundPathProblem, seqProblems, shoeProblems, timeProblems } from './audit-order';
import type { ProofRound, RecordedRound } from './bundle';
import { canonicalJson } from './canonical';
import { type HeadStatement, headStatementBytes, type SignedHead } from './heads';
import { betsDigest, refundsDigest, settlementsDigest } from './salted';
import { closeStatementBytes, type ShoeCloseStatement, type ShoeStatement } from './statement';
import { beaconRecordProblem, checkStartBurn, isV3 } from './verify-audit-v3';
import { checkContributions } from './verify-contributions';
import type { KeyRing } from './verify-keys';
import type { Report } from './verify-report';
import { parseAll } from './verify-rounds';
import { checkSalted, digestSaltOf } from './verify-salted';

const firstProblem = (problems: { detail: string }[], what: string): [boolean, string] =>
  problems.length === 0 ? [true, what] : [false, problems.map((p) => p.detail).join('; ')];

export async function checkAudit(
  report: Report,
  evidence: Evidence,
  raw: { statement: ShoeStatement; close: ShoeCloseStatement; heads: readonly SignedHead[] },
  keys: KeyRing,
) {
  const { statement, audit } = evidence;
  const events = audit.events;
  const list = events.map((e) => e.event as Event);

  report.add(
    'audit.seq',
    ...firstProblem(seqProblems(list), `${list.length} events numbered 0..${list.length - 1}, no gap`),
  );
  report.add(
    'audit.shoe',
    ...firstProblem(shoeProblems(list, statement.shoeId), `every event names shoe ${statement.shoeId}`),
  );
  const chain = verifyChain(events, statement.commitment);
  report.add(
    'audit.chain',
    chain.ok,
    chain.ok ? `${chain.length} events linked from the commitment to head ${chain.head}` : chain.detail,
  );
  report.add(
    'audit.order',
    ...firstProblem(
      phaseProblems(list, true),
      'opened; seeds contributed and closed; beacon round recorded before the first coup; one round at a time; closed last',
    ),
  );
  report.add('audit.times', ...firstProblem(timeProblems(list), 'event times never go back'));

  report.try('audit.statement', () => {
    const opened = list[0];
    if (opened?.type !== 'SHOE_OPENED') return [false, 'the chain does not start with SHOE_OPENED'];
    const data = dataOf(opened);
    if (
      canonicalJson(data.statement) !== canonicalJson(raw.statement) ||
      data.signature !== evidence.signature
    )
      return [false, 'SHOE_OPENED records another statement or signature than the evidence'];
    if (opened.at !== statement.createdAt)
      return [false, `SHOE_OPENED is dated ${String(opened.at)}, the statement ${statement.createdAt}`];
    return [true, 'SHOE_OPENED, the first event, carries this signed statement'];
  });

  checkContributions(report, evidence, list);
  const salt = digestSaltOf(evidence);
  if (isV3(evidence)) checkStartBurn(report, evidence, list);
  for (const round of evidence.rounds) checkRoundEvents(report, evidence, round, list, salt);
  checkSalted(report, evidence, list);

  const openedRounds = list.filter((e) => e.type === 'ROUND_OPENED').length;
  const dealtInChain = list.filter((e) => e.type === 'COUP_DEALT').length;
  const dealt = evidence.rounds.filter((r) => r.status === 'SETTLED').length;
  report.add(
    'audit.rounds',
    dealtInChain === dealt && openedRounds === evidence.rounds.length,
    dealtInChain === dealt && openedRounds === evidence.rounds.length
      ? `${evidence.rounds.length} rounds opened, ${dealt} coups dealt, all in the evidence`
      : `the chain opened ${openedRounds} rounds and dealt ${dealtInChain} coups; the evidence has ${evidence.rounds.length} rounds and ${dealt} coups`,
  );

  const closedEvent = list.findLast((e) => e.type === 'SHOE_CLOSED');
  report.add(
    'audit.seed-revealed',
    closedEvent !== undefined && dataOf(closedEvent).serverSeed === evidence.serverSeed,
    !closedEvent
      ? 'the chain has no SHOE_CLOSED event'
      : dataOf(closedEvent).serverSeed === evidence.serverSeed
        ? 'SHOE_CLOSED reveals this server seed'
        : 'SHOE_CLOSED reveals another server seed than the evidence',
  );

  await checkHeads(report, evidence, raw.heads, list, keys);
  await checkClose(report, evidence, raw.close, closedEvent, keys);
}

/** A round's events in chain order, and the digests and cards they committed. */
function checkRoundEvents(
  report: Report,
  evidence: Evidence,
  round: RecordedRound | ProofRound,
  list: Event[],
  salt: string | undefined,
) {
  const mine = list.filter((e) => e.roundId === round.roundId);
  const find = (type: string) => mine.find((e) => e.type === type);
  const prefix = `audit.round.${round.number}`;
  const types = mine.map((e) => String(e.type));
  const wrong = roundPathProblem(types, true);
  const ends = round.status === 'SETTLED' ? 'ROUND_SETTLED' : 'ROUND_VOIDED';
  report.add(
    `${prefix}.order`,
    !wrong && types.at(-1) === ends,
    wrong ??
      (types.at(-1) === ends
        ? types.join(' < ')
        : `the round is ${round.status} but its events end with ${types.at(-1)}`),
  );
  const positions = 'positions' in round ? round.positions : undefined;
  const closed = find('BETTING_CLOSED');
  if (positions) {
    const bets = betsDigest(positions, salt);
    report.add(
      `${prefix}.bets`,
      closed ? dataOf(closed).betsDigest === bets : round.status === 'VOIDED',
      closed
        ? dataOf(closed).betsDigest === bets
          ? `bets committed when betting closed (digest ${bets})`
          : `the bets in the bundle (digest ${bets}) are not the ones committed when betting closed (${String(dataOf(closed).betsDigest)})`
        : round.status === 'VOIDED'
          ? 'voided before betting closed'
          : `the chain has no BETTING_CLOSED event for round ${round.roundId}`,
    );
  }
  if (round.status === 'SETTLED') {
    const dealt = find('COUP_DEALT');
    report.try(`${prefix}.dealt`, () => {
      if (!dealt) return [false, `the chain has no COUP_DEALT event for round ${round.roundId}`];
      const cards = round.coup ? parseAll(round.coup.cards) : [];
      if (canonicalJson(dataOf(dealt).cards) !== canonicalJson(cards))
        return [
          false,
          `the chain recorded other cards for this coup than the evidence (${round.coup?.cards.join(' ')})`,
        ];
      const beacon = round.coup?.beacon;
      const wrong =
        isV3(evidence) && beaconRecordProblem(evidence.statement.beacon, dealt, dataOf(dealt).beacon, beacon);
      if (wrong) return [false, wrong];
      return [
        true,
        `the cards were recorded when dealt: ${round.coup?.cards.join(' ')}${beacon ? `, from beacon round ${beacon.round}` : ''}`,
      ];
    });
    if (positions) {
      const settledEvent = find('ROUND_SETTLED');
      const settled = settlementsDigest(positions, salt);
      report.add(
        `${prefix}.settlement`,
        settledEvent !== undefined && dataOf(settledEvent).settlementsDigest === settled,
        !settledEvent
          ? `the chain has no ROUND_SETTLED event for round ${round.roundId}`
          : dataOf(settledEvent).settlementsDigest === settled
            ? `payouts committed at settlement (digest ${settled})`
            : `the payouts in the bundle (digest ${settled}) are not the ones committed at settlement (${String(dataOf(settledEvent).settlementsDigest)})`,
      );
    }
  } else {
    checkBurnEvent(report, evidence, prefix, round, find('ROUND_VOIDED'));
  }
  if (round.status === 'VOIDED' && positions) {
    const voided = find('ROUND_VOIDED');
    const refunds = refundsDigest(positions, salt);
    report.add(
      `${prefix}.refunds`,
      voided !== undefined && dataOf(voided).refundsDigest === refunds,
      !voided
        ? `the chain has no ROUND_VOIDED event for round ${round.roundId}`
        : dataOf(voided).refundsDigest === refunds
          ? `refunds committed when voided (digest ${refunds})`
          : `the refunds in the bundle (digest ${refunds}) are not the ones committed (${String(dataOf(voided).refundsDigest)})`,
    );
  }
}

/** The cards a dealer-error void burned, as ROUND_VOIDED recorded them (none when it burned none). */
function checkBurnEvent(
  report: Report,
  evidence: Evidence,
  prefix: string,
  round: RecordedRound | ProofRound,
  voided: Event | undefined,
) {
  const recorded = voided
    ? (dataOf(voided).burned as { start?: unknown; cards?: unknown } | undefined)
    : undefined;
  if (!round.burned && recorded === undefined) return;
  report.try(`${prefix}.burned`, () => {
    if (!round.burned)
      return [false, 'the chain recorded burned cards for a round the evidence shows without them'];
    if (recorded === undefined) return [false, 'the evidence shows burned cards the chain never recorded'];
    const cards = parseAll(round.burned.cards);
    if (recorded.start !== round.burned.start || canonicalJson(recorded.cards) !== canonicalJson(cards))
      return [
        false,
        `the chain recorded other burned cards than the evidence (${round.burned.cards.join(' ')})`,
      ];
    const { beacon } = round.burned;
    const wrong =
      isV3(evidence) &&
      beaconRecordProblem(
        evidence.statement.beacon,
        voided!,
        (recorded as { beacon?: unknown }).beacon,
        beacon,
      );
    if (wrong) return [false, wrong];
    return [
      true,
      `the burned cards were recorded when the round was voided: ${round.burned.cards.join(' ')}${beacon ? `, from beacon round ${beacon.round}` : ''}`,
    ];
  });
}

/**
 * One signed head against the chain: by a key valid when it signed, of this shoe, and its head is the
 * hash of the event it names. Used for the evidence's own heads and for receipts a caller kept.
 */
export async function headProblem(
  evidence: Evidence,
  head: SignedHead,
  list: Event[],
  keys: KeyRing,
): Promise<[ok: boolean, detail: string]> {
  const s: HeadStatement = head.statement;
  const signed = await keys.signed(s.keyId, headStatementBytes(s), head.signature);
  if (!signed.ok) return [false, signed.detail];
  const invalid = keys.invalidAt(s.keyId, s.at);
  if (invalid) return [false, invalid];
  if (s.shoeId !== evidence.statement.shoeId || s.commitment !== evidence.statement.commitment)
    return [false, `signed for shoe ${s.shoeId} (commitment ${s.commitment})`];
  const event = evidence.audit.events[s.seq];
  if (!event)
    return [false, `names event ${s.seq}, but the chain has ${evidence.audit.events.length} events`];
  const e = list[s.seq]!;
  if (event.hash !== s.head)
    return [
      false,
      `signed head ${s.head} at event ${s.seq}, but the chain's event ${s.seq} hashes to ${event.hash}: the chain was rewritten after this head was signed`,
    ];
  if (e.type !== s.type || (e.roundId ?? null) !== s.roundId)
    return [
      false,
      `names ${s.type} of round ${s.roundId}, event ${s.seq} is ${String(e.type)} of ${String(e.roundId ?? 'no round')}`,
    ];
  if (Date.parse(s.at) < Date.parse(String(e.at)))
    return [false, `signed at ${s.at}, before the event it covers (${String(e.at)})`];
  return [
    true,
    `${s.type}${s.roundId ? ` of round ${s.roundId}` : ''}: head ${s.head} at event ${s.seq}, signed ${s.at} by ${s.keyId}`,
  ];
}

async function checkHeads(
  report: Report,
  evidence: Evidence,
  raw: readonly SignedHead[],
  list: Event[],
  keys: KeyRing,
) {
  const numberOf = new Map(evidence.rounds.map((r) => [r.roundId, r.number]));
  const seen = new Set<number>();
  for (const head of raw) {
    const s = head.statement;
    const round = s.roundId && `heads.round.${numberOf.get(s.roundId) ?? s.roundId}`;
    const label = !round ? 'heads.contributions' : s.type === 'BETTING_CLOSED' ? `${round}.betting` : round;
    seen.add(s.seq);
    await report.tryAsync(label, () => headProblem(evidence, head, list, keys));
  }
  // Every close of contributions and every finished round has its signed head; in pyb-shoe/3 every
  // close of betting too (the receipt of the round it names).
  const signed = [
    'CONTRIBUTIONS_CLOSED',
    'ROUND_SETTLED',
    'ROUND_VOIDED',
    ...(isV3(evidence) ? ['BETTING_CLOSED'] : []),
  ];
  const missing = list.filter((e, seq) => signed.includes(String(e.type)) && !seen.has(seq));
  report.add(
    'heads.complete',
    missing.length === 0,
    missing.length === 0
      ? `${raw.length} signed heads: the close of contributions${isV3(evidence) ? ', every close of betting' : ''} and every settled or voided round`
      : `no signed head for ${missing.map((e) => `${String(e.type)} (event ${String(e.seq)}${e.roundId ? `, round ${String(e.roundId)}` : ''})`).join(', ')}`,
  );
}

async function checkClose(
  report: Report,
  evidence: Evidence,
  rawClose: ShoeCloseStatement,
  closedEvent: Event | undefined,
  keys: KeyRing,
) {
  const { statement, audit } = evidence;
  const close = audit.close;
  const events = audit.events;
  const head = events.length > 0 ? events[events.length - 1]!.hash : statement.commitment;
  const problems = [
    close.shoeId !== statement.shoeId && `shoe ${close.shoeId}`,
    close.commitment !== statement.commitment && `commitment ${close.commitment}`,
    close.head !== head && `head ${close.head} but the chain ends at ${head}`,
    close.length !== events.length && `length ${close.length} but the chain has ${events.length} events`,
    closedEvent &&
      closedEvent.at !== close.closedAt &&
      `closed at ${close.closedAt} but SHOE_CLOSED is dated ${String(closedEvent.at)}`,
  ].filter(Boolean);
  report.add(
    'audit.close',
    problems.length === 0,
    problems.length === 0
      ? `closed at ${close.closedAt} with head ${close.head} over ${close.length} events`
      : `the close statement does not match: ${problems.join('; ')}`,
  );
  const signed = await keys.signed(close.keyId, closeStatementBytes(rawClose), audit.signature);
  report.add(
    'audit.close.signature',
    signed.ok,
    signed.ok ? `ECDSA P-256/SHA-256 signature of the chain head by ${close.keyId} is valid` : signed.detail,
  );
  // Signed by a key valid at closedAt, and that key is the statement's or the generation right after
  // it (a rotation while the shoe was open), never a later one.
  report.try('audit.close.key', () => {
    const invalid = keys.invalidAt(close.keyId, close.closedAt);
    if (invalid) return [false, invalid];
    const opener = keys.byId.get(statement.keyId);
    const closer = keys.byId.get(close.keyId)!;
    if (!opener) return [false, `the statement's key ${statement.keyId} has no valid certificate`];
    const step = closer.generation - opener.generation;
    if (step !== 0 && step !== 1) {
      return [
        false,
        `the close is signed by generation ${closer.generation}, the statement by generation ${opener.generation}: only the statement's key or its direct successor may close a shoe`,
      ];
    }
    return [
      true,
      `${close.keyId} (${step === 0 ? "the statement's key" : "the statement key's direct successor"}) was valid at ${close.closedAt}`,
    ];
  });
}
