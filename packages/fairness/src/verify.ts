/**
 * The standalone verifier: from a closed shoe's public bundle, re-deal the shoe, replay and re-settle
 * every coup with the engine, re-walk the audit chain, and check both signatures. Every check is
 * reported, passed or failed, so a reader sees what was verified and not only what broke.
 */
import {
  type Bet,
  type Card,
  formatCard,
  nextCoup,
  parseCard,
  type ShoeState,
  settle,
  startShoe,
  type TableConfig,
  validateBets,
} from '@pyb/engine';
import { verifyChain } from './audit';
import {
  betsDigest,
  positionsDigest,
  type RecordedPosition,
  type RecordedRound,
  type ShoeBundle,
  ShoeBundleSchema,
} from './bundle';
import { base64ToBytes, hexToBytes } from './bytes';
import { dealShoe, type Shoe } from './shoe';
import { keyFingerprint, parsePublicKey, verifyDerSignature } from './signature';
import {
  closeStatementBytes,
  commitmentOf,
  RULES_VERSION,
  type ShoeCloseStatement,
  type ShoeStatement,
  statementBytes,
} from './statement';

export interface Check {
  /** Stable, dotted: `statement.signature`, `coup.12.cards`, `coup.12.position.p-3.payout`, … */
  id: string;
  ok: boolean;
  detail: string;
}

export interface VerifyOptions {
  /** The operator's published key (PEM or base64 SPKI): the bundle's key must be this one. */
  trustedPublicKey?: string;
}

const cardsText = (cards: readonly Card[]) => cards.map(formatCard).join(' ') || '(none)';
const parseAll = (cards: readonly string[]) => cards.map(parseCard);

class Report {
  readonly checks: Check[] = [];
  add(id: string, ok: boolean, detail: string): boolean {
    this.checks.push({ id, ok, detail });
    return ok;
  }
  /** Runs `check`; an exception is a failed check, never a crash of the verifier. */
  try(id: string, check: () => [ok: boolean, detail: string]): boolean {
    try {
      return this.add(id, ...check());
    } catch (error) {
      return this.add(id, false, error instanceof Error ? error.message : String(error));
    }
  }
}

export function verifyBundle(input: unknown, options: VerifyOptions = {}): Check[] {
  const report = new Report();
  const parsed = ShoeBundleSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    report.add('bundle.format', false, `not a shoe bundle: ${issues.slice(0, 8).join('; ')}`);
    return report.checks;
  }
  const bundle = parsed.data;
  // Signatures are checked over the statements exactly as received, before any parsing could alter them.
  const raw = input as { statement: ShoeStatement; audit: { close: ShoeCloseStatement } };
  const { statement } = bundle;
  const table = statement.table as TableConfig;
  report.add(
    'bundle.format',
    true,
    `${bundle.format}, shoe ${statement.shoeId}, ${bundle.rounds.length} round(s)`,
  );

  checkStatement(report, bundle, raw.statement, options);
  report.try('seed.commitment', () => {
    const commitment = commitmentOf(hexToBytes(bundle.serverSeed));
    return commitment === statement.commitment
      ? [true, `SHA-256(server seed) = ${commitment}, as committed`]
      : [
          false,
          `SHA-256(revealed server seed) = ${commitment}, but the statement committed to ${statement.commitment}`,
        ];
  });

  let shoe: Shoe | undefined;
  report.try('shoe.deal', () => {
    shoe = dealShoe({
      serverSeed: hexToBytes(bundle.serverSeed),
      clientSeed: bundle.clientSeed,
      shoeId: statement.shoeId,
      decks: statement.decks,
      cutCard: statement.cutCard,
    });
    return [
      true,
      `${shoe.order.length} cards dealt from server seed, client seed "${bundle.clientSeed}" and shoe id`,
    ];
  });
  if (shoe) {
    checkShoe(report, bundle, shoe);
    checkRounds(report, bundle.rounds, table, shoe);
  }
  checkAudit(report, bundle, raw.audit.close);
  return report.checks;
}

function checkStatement(
  report: Report,
  bundle: ShoeBundle,
  rawStatement: ShoeStatement,
  options: VerifyOptions,
) {
  const { statement } = bundle;
  const { table } = statement;
  report.add(
    'statement.rules',
    statement.decks === table.decks &&
      statement.cutCard.minCardsBehind === table.cutCard.minCardsBehind &&
      statement.cutCard.maxCardsBehind === table.cutCard.maxCardsBehind &&
      statement.rulesVersion === RULES_VERSION,
    statement.rulesVersion !== RULES_VERSION
      ? `rules version ${statement.rulesVersion} is not the one this verifier replays (${RULES_VERSION})`
      : statement.decks !== table.decks ||
          statement.cutCard.minCardsBehind !== table.cutCard.minCardsBehind ||
          statement.cutCard.maxCardsBehind !== table.cutCard.maxCardsBehind
        ? 'decks or cut-card bounds differ from the table configuration in the same statement'
        : `${statement.decks} decks, ${statement.cutCard.minCardsBehind}..${statement.cutCard.maxCardsBehind} cards behind the cut card, rules ${RULES_VERSION}`,
  );
  let spki: Uint8Array | undefined;
  report.try('statement.public-key', () => {
    spki = parsePublicKey(bundle.publicKey);
    const fingerprint = keyFingerprint(spki);
    if (options.trustedPublicKey !== undefined) {
      const trusted = keyFingerprint(parsePublicKey(options.trustedPublicKey));
      if (trusted !== fingerprint) {
        return [
          false,
          `the bundle's key (SHA-256 ${fingerprint}) is not the trusted key (SHA-256 ${trusted})`,
        ];
      }
      return [true, `P-256 key ${statement.keyId}, SHA-256 ${fingerprint}, matches the trusted key`];
    }
    return [
      true,
      `P-256 key ${statement.keyId}, SHA-256 ${fingerprint} (compare with the operator's published key)`,
    ];
  });
  report.try('statement.signature', () => {
    if (!spki) return [false, 'no usable public key'];
    const ok = verifyDerSignature(statementBytes(rawStatement), base64ToBytes(bundle.signature), spki);
    return ok
      ? [true, 'ECDSA P-256/SHA-256 signature of the RFC 8785 statement is valid']
      : [false, 'the statement signature does not verify: the statement or the signature was altered'];
  });
}

function checkShoe(report: Report, bundle: ShoeBundle, shoe: Shoe) {
  report.add(
    'shoe.cut-index',
    shoe.cutIndex === bundle.cutIndex,
    shoe.cutIndex === bundle.cutIndex
      ? `cut card before card ${shoe.cutIndex} (${shoe.order.length - shoe.cutIndex} cards behind it)`
      : `the seeds put the cut card before card ${shoe.cutIndex}, the bundle claims ${bundle.cutIndex}`,
  );
  report.try('shoe.burn', () => {
    const shown = parseCard(bundle.burn.shown);
    const ok = shown === shoe.burn.shown && bundle.burn.burned === shoe.burn.burned;
    const expected = `${formatCard(shoe.burn.shown)} shown, ${shoe.burn.burned} burned`;
    return ok
      ? [true, expected]
      : [
          false,
          `expected ${expected}, the bundle claims ${bundle.burn.shown} shown, ${bundle.burn.burned} burned`,
        ];
  });
}

function checkRounds(report: Report, rounds: readonly RecordedRound[], table: TableConfig, shoe: Shoe) {
  let state: ShoeState = startShoe(shoe.order);
  rounds.forEach((round, k) => {
    const prefix = `coup.${round.coup}`;
    report.add(
      `${prefix}.sequence`,
      round.coup === k + 1,
      round.coup === k + 1
        ? `round ${round.roundId}`
        : `round ${round.roundId} is the ${k + 1}th of the shoe but numbered ${round.coup}`,
    );
    if (state.finished) {
      report.add(
        `${prefix}.shoe-end`,
        false,
        `round ${round.roundId} was played after the cut card ended the shoe`,
      );
      return;
    }
    if (round.status === 'VOIDED') {
      state = checkVoidedRound(report, prefix, round, shoe, state);
      return;
    }
    let next: ReturnType<typeof nextCoup>;
    try {
      next = nextCoup(table, shoe.order, shoe.cutIndex, state);
    } catch (error) {
      report.add(`${prefix}.cards`, false, `cannot deal this coup: ${(error as Error).message}`);
      return;
    }
    const { result } = next;
    const expected = Array.from(shoe.order.subarray(next.start, next.start + result.cardsUsed));
    report.try(`${prefix}.cards`, () => {
      const recorded = parseAll(round.cards);
      const at = firstDifference(expected, recorded);
      return at < 0
        ? [true, `cards ${next.start}..${next.start + result.cardsUsed - 1}: ${cardsText(expected)}`]
        : [
            false,
            `card ${next.start + at} should be ${expected[at] === undefined ? '(none)' : formatCard(expected[at])}, recorded ${round.cards[at] ?? '(none)'}; the shoe deals ${cardsText(expected)}, recorded ${round.cards.join(' ') || '(none)'}`,
          ];
    });
    report.try(`${prefix}.outcome`, () => {
      const o = round.outcome;
      if (!o) return [false, 'a settled round without an outcome'];
      const diffs: string[] = [];
      const eq = (what: string, a: unknown, b: unknown) => {
        if (a !== b) diffs.push(`${what}: expected ${String(a)}, recorded ${String(b)}`);
      };
      eq('winner', result.winner, o.winner);
      eq('Punto cards', cardsText(result.player.cards), cardsText(parseAll(o.player.cards)));
      eq('Banca cards', cardsText(result.banker.cards), cardsText(parseAll(o.banker.cards)));
      eq('Punto total', result.player.total, o.player.total);
      eq('Banca total', result.banker.total, o.banker.total);
      eq('natural', result.natural, o.natural);
      eq('Punto pair', result.playerPair, o.playerPair);
      eq('Banca pair', result.bankerPair, o.bankerPair);
      return diffs.length === 0
        ? [
            true,
            `${result.winner} ${result.player.total}-${result.banker.total}${result.natural ? ', natural' : ''}`,
          ]
        : [false, diffs.join('; ')];
    });
    for (const position of round.positions) checkSettlement(report, prefix, position, table, result);
    if (next.last) {
      report.add(
        `${prefix}.shoe-end`,
        true,
        `the last coup of the shoe (cut card rule ${table.afterCutCard})`,
      );
    }
    state = next.state;
  });
}

function checkVoidedRound(
  report: Report,
  prefix: string,
  round: RecordedRound,
  shoe: Shoe,
  state: ShoeState,
): ShoeState {
  const expected = Array.from(shoe.order.subarray(state.cursor, state.cursor + round.cards.length));
  report.try(`${prefix}.cards`, () => {
    const recorded = parseAll(round.cards);
    const at = firstDifference(expected, recorded);
    return at < 0
      ? [true, `voided; ${recorded.length} card(s) consumed: ${cardsText(recorded)}`]
      : [
          false,
          `voided round: card ${state.cursor + at} should be ${expected[at] === undefined ? '(none)' : formatCard(expected[at])}, recorded ${round.cards[at]}`,
        ];
  });
  report.add(
    `${prefix}.outcome`,
    round.outcome === null,
    round.outcome === null ? 'voided: no outcome' : 'a voided round must not record an outcome',
  );
  for (const p of round.positions) {
    const wrong = p.bets.find(
      (b) => b.result !== 'VOID' || b.payout !== b.amount || b.commission !== 0 || b.commissionOwed !== 0,
    );
    const stake = p.bets.reduce((s, b) => s + b.amount, 0);
    const ok = !wrong && p.payout === stake && p.commission === 0 && p.commissionOwed === 0;
    report.add(
      `${prefix}.position.${p.positionId}.payout`,
      ok,
      ok
        ? `refunded ${stake}`
        : wrong
          ? `${wrong.type} bet of ${wrong.amount} should be refunded in full (VOID, payout ${wrong.amount}), recorded ${wrong.result} ${wrong.payout}`
          : `position should get back its stake ${stake}, recorded ${p.payout} (commission ${p.commission}, owed ${p.commissionOwed})`,
    );
  }
  return { ...state, cursor: state.cursor + round.cards.length };
}

function checkSettlement(
  report: Report,
  prefix: string,
  position: RecordedPosition,
  table: TableConfig,
  result: Parameters<typeof settle>[2],
) {
  const id = `${prefix}.position.${position.positionId}`;
  const bets: Bet[] = position.bets.map((b) => ({ type: b.type as Bet['type'], amount: b.amount }));
  report.try(`${id}.bets`, () => {
    validateBets(table, bets);
    return [true, bets.map((b) => `${b.type} ${b.amount}`).join(', ')];
  });
  report.try(`${id}.payout`, () => {
    const expected = settle(table, bets, result);
    const diffs: string[] = [];
    expected.bets.forEach((e, i) => {
      const r = position.bets[i]!;
      for (const field of ['result', 'payout', 'commission', 'commissionOwed'] as const) {
        if (e[field] !== r[field])
          diffs.push(`${e.type} ${field}: expected ${e[field]}, recorded ${r[field]}`);
      }
    });
    for (const field of ['payout', 'commission', 'commissionOwed'] as const) {
      if (expected[field] !== position[field])
        diffs.push(`position ${field}: expected ${expected[field]}, recorded ${position[field]}`);
    }
    return diffs.length === 0
      ? [
          true,
          `stake ${expected.stake}, payout ${expected.payout}, commission ${expected.commission}, owed ${expected.commissionOwed}`,
        ]
      : [false, diffs.join('; ')];
  });
}

function checkAudit(report: Report, bundle: ShoeBundle, rawClose: ShoeCloseStatement) {
  const { statement, audit } = bundle;
  const events = audit.events;
  const chain = verifyChain(events, statement.commitment);
  report.add(
    'audit.chain',
    chain.ok,
    chain.ok ? `${chain.length} events linked from the commitment to head ${chain.head}` : chain.detail,
  );

  const seedAt = events.findIndex((e) => 'clientSeed' in e.event);
  const firstRoundAt = events.findIndex((e) => 'roundId' in e.event);
  const seedEvent = seedAt >= 0 ? events[seedAt]!.event : undefined;
  report.add(
    'audit.client-seed',
    seedEvent !== undefined &&
      seedEvent.clientSeed === bundle.clientSeed &&
      (firstRoundAt < 0 || seedAt < firstRoundAt),
    seedEvent === undefined
      ? 'the audit chain never records the client seed'
      : seedEvent.clientSeed !== bundle.clientSeed
        ? `the chain fixed client seed ${JSON.stringify(seedEvent.clientSeed)}, the bundle uses ${JSON.stringify(bundle.clientSeed)}`
        : firstRoundAt >= 0 && seedAt > firstRoundAt
          ? `the client seed was fixed at event ${seedAt}, after the first round (event ${firstRoundAt})`
          : `fixed at event ${seedAt}, after the commitment and before the first round`,
  );

  for (const round of bundle.rounds) {
    const mine = events.filter((e) => e.event.roundId === round.roundId).map((e) => e.event);
    const prefix = `audit.coup.${round.coup}`;
    const bets = mine.find((e) => 'betsDigest' in e);
    const expectedBets = betsDigest(round.positions);
    report.add(
      `${prefix}.bets`,
      bets ? bets.betsDigest === expectedBets : round.status === 'VOIDED',
      bets
        ? bets.betsDigest === expectedBets
          ? `bets committed when betting closed (digest ${expectedBets})`
          : `the bets in the bundle (digest ${expectedBets}) are not the ones committed when betting closed (${String(bets.betsDigest)})`
        : round.status === 'VOIDED'
          ? 'voided before betting closed'
          : `the chain has no betting-closed digest for round ${round.roundId}`,
    );
    const settled = mine.find((e) => 'positionsDigest' in e);
    const expectedPositions = positionsDigest(round.positions);
    report.add(
      `${prefix}.settlement`,
      settled?.positionsDigest === expectedPositions,
      !settled
        ? `the chain has no settlement digest for round ${round.roundId}`
        : settled.positionsDigest === expectedPositions
          ? `payouts committed at settlement (digest ${expectedPositions})`
          : `the payouts in the bundle (digest ${expectedPositions}) are not the ones committed at settlement (${String(settled.positionsDigest)})`,
    );
  }

  const close = audit.close;
  const head = events.length > 0 ? events[events.length - 1]!.hash : statement.commitment;
  const closeProblems = [
    close.shoeId !== statement.shoeId && `shoe ${close.shoeId}`,
    close.commitment !== statement.commitment && `commitment ${close.commitment}`,
    close.head !== head && `head ${close.head} but the chain ends at ${head}`,
    close.length !== events.length && `length ${close.length} but the chain has ${events.length} events`,
    close.keyId !== statement.keyId &&
      `key ${close.keyId} but the statement was signed by ${statement.keyId}`,
  ].filter(Boolean);
  report.add(
    'audit.close',
    closeProblems.length === 0,
    closeProblems.length === 0
      ? `closed at ${close.closedAt} with head ${close.head} over ${close.length} events`
      : `the close statement does not match: ${closeProblems.join('; ')}`,
  );
  report.try('audit.close.signature', () => {
    const ok = verifyDerSignature(
      closeStatementBytes(rawClose),
      base64ToBytes(audit.signature),
      parsePublicKey(bundle.publicKey),
    );
    return ok
      ? [true, 'ECDSA P-256/SHA-256 signature of the chain head is valid']
      : [
          false,
          'the signature of the chain head does not verify: the close statement or its signature was altered',
        ];
  });
}

function firstDifference(expected: readonly number[], recorded: readonly number[]): number {
  const n = Math.max(expected.length, recorded.length);
  for (let i = 0; i < n; i++) if (expected[i] !== recorded[i]) return i;
  return -1;
}

export const allPassed = (checks: readonly Check[]): boolean =>
  checks.length > 0 && checks.every((c) => c.ok);
