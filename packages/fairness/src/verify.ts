/**
 * The standalone verifier: from a closed shoe's public bundle, re-deal the shoe, replay and re-settle
 * every coup with the engine, re-walk the audit chain, and check both signatures. Every check is
 * reported, passed or failed, so a reader sees what was verified and not only what broke.
 */
import {
  betList,
  type CoupResult,
  cardsText,
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
  type RecordedPosition,
  type RecordedRound,
  refundsDigest,
  type ShoeBundle,
  ShoeBundleSchema,
  settlementsDigest,
} from './bundle';
import { base64ToBytes, hexToBytes } from './bytes';
import { canonicalJson } from './canonical';
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
  /** Stable, dotted: `statement.signature`, `round.12.cards`, `round.12.player.p-3.payout`, … */
  id: string;
  ok: boolean;
  detail: string;
}

export interface VerifyOptions {
  /**
   * The operator's published key(s) (PEM or base64 SPKI): every key in the bundle must be one of
   * them. Several when the operator rotated its signing key (a shoe may be opened under one key and
   * closed under the next).
   */
  trustedPublicKey?: string | readonly string[];
}

/** SHA-256 fingerprints of the trusted keys; undefined when none were given. */
const trustedFingerprints = (options: VerifyOptions): Set<string> | undefined => {
  const { trustedPublicKey: trusted } = options;
  if (trusted === undefined) return undefined;
  const list: readonly string[] = typeof trusted === 'string' ? [trusted] : trusted;
  return new Set(list.map((key) => keyFingerprint(parsePublicKey(key))));
};

/** The `public-key` check of one key in the bundle: its fingerprint, and whether it is trusted. */
function keyCheck(keyId: string, spki: Uint8Array, options: VerifyOptions): [ok: boolean, detail: string] {
  const fingerprint = keyFingerprint(spki);
  const trusted = trustedFingerprints(options);
  if (trusted === undefined) {
    return [true, `P-256 key ${keyId}, SHA-256 ${fingerprint} (compare with the operator's published key)`];
  }
  return trusted.has(fingerprint)
    ? [true, `P-256 key ${keyId}, SHA-256 ${fingerprint}, matches the trusted key`]
    : [
        false,
        `the bundle's key ${keyId} (SHA-256 ${fingerprint}) is not a trusted key (SHA-256 ${[...trusted].join(', ')})`,
      ];
}

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
  checkAudit(report, bundle, { statement: raw.statement, close: raw.audit.close }, options);
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
    return keyCheck(statement.keyId, spki, options);
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
    const prefix = `round.${round.number}`;
    report.add(
      `${prefix}.sequence`,
      round.number === k + 1,
      round.number === k + 1
        ? `round ${round.roundId}, ${round.status.toLowerCase()}`
        : `round ${round.roundId} is the ${k + 1}th of the shoe but numbered ${round.number}`,
    );
    if (round.status === 'VOIDED') {
      checkVoidedRound(report, prefix, round);
      return;
    }
    if (state.finished) {
      report.add(
        `${prefix}.shoe-end`,
        false,
        `round ${round.roundId} was dealt after the cut card ended the shoe`,
      );
      return;
    }
    const recorded = round.coup;
    if (!recorded) {
      report.add(`${prefix}.cards`, false, 'a settled round without a coup');
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
      if (recorded.index !== next.index || recorded.start !== next.start) {
        return [
          false,
          `recorded as coup ${recorded.index} from card ${recorded.start}, but it is coup ${next.index} from card ${next.start}`,
        ];
      }
      const cards = parseAll(recorded.cards);
      const at = firstDifference(expected, cards);
      return at < 0
        ? [
            true,
            `coup ${next.index}, cards ${next.start}..${next.start + result.cardsUsed - 1}: ${cardsText(expected)}`,
          ]
        : [
            false,
            `card ${next.start + at} should be ${expected[at] === undefined ? '(none)' : formatCard(expected[at])}, recorded ${recorded.cards[at] ?? '(none)'}; the shoe deals ${cardsText(expected)}, recorded ${recorded.cards.join(' ')}`,
          ];
    });
    report.try(`${prefix}.outcome`, () => {
      const diffs: string[] = [];
      const eq = (what: string, a: unknown, b: unknown) => {
        if (a !== b) diffs.push(`${what}: expected ${String(a)}, recorded ${String(b)}`);
      };
      eq('winner', result.winner, recorded.winner);
      eq('Punto cards', cardsText(result.player.cards), cardsText(parseAll(recorded.player.cards)));
      eq('Banca cards', cardsText(result.banker.cards), cardsText(parseAll(recorded.banker.cards)));
      eq('Punto total', result.player.total, recorded.player.total);
      eq('Banca total', result.banker.total, recorded.banker.total);
      eq('natural', result.natural, recorded.natural);
      eq('Punto pair', result.playerPair, recorded.playerPair);
      eq('Banca pair', result.bankerPair, recorded.bankerPair);
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
        `the last coup of the shoe (after the cut card: ${table.afterCutCard})`,
      );
    }
    state = next.state;
  });
}

/** A voided round deals no card; each position gets its stake back and nothing else. */
function checkVoidedRound(report: Report, prefix: string, round: RecordedRound) {
  report.add(
    `${prefix}.cards`,
    round.coup === null,
    round.coup === null
      ? `voided (${round.voidReason ?? 'no reason given'}): no cards dealt`
      : 'a voided round must not record a coup',
  );
  for (const p of round.positions) {
    const stake = betList(p.bets).reduce((s, b) => s + b.amount, 0);
    const ok = p.settlement === null && p.stake === stake;
    report.add(
      `${prefix}.player.${p.playerId}.refund`,
      ok,
      ok
        ? `stake ${stake} refunded`
        : p.settlement !== null
          ? 'a voided position must not be settled'
          : `the bets add up to ${stake}, the position records a stake of ${p.stake}`,
    );
  }
}

function checkSettlement(
  report: Report,
  prefix: string,
  position: RecordedPosition,
  table: TableConfig,
  result: CoupResult,
) {
  const id = `${prefix}.player.${position.playerId}`;
  const bets = betList(position.bets);
  report.try(`${id}.bets`, () => {
    validateBets(table, bets);
    const stake = bets.reduce((s, b) => s + b.amount, 0);
    if (stake !== position.stake)
      return [false, `the bets add up to ${stake}, the position records a stake of ${position.stake}`];
    return [true, bets.map((b) => `${b.type} ${b.amount}`).join(', ')];
  });
  report.try(`${id}.payout`, () => {
    const expected = settle(table, bets, result);
    const recorded = position.settlement;
    if (!recorded) return [false, 'a position of a settled round without a settlement'];
    const diffs: string[] = [];
    for (const e of expected.bets) {
      const r = recorded.bets.find((b) => b.type === e.type);
      if (!r) {
        diffs.push(`${e.type}: not settled`);
        continue;
      }
      for (const field of ['amount', 'result', 'payout', 'commission', 'commissionOwed'] as const) {
        if (e[field] !== r[field])
          diffs.push(`${e.type} ${field}: expected ${e[field]}, recorded ${r[field]}`);
      }
    }
    if (recorded.bets.length !== expected.bets.length) {
      diffs.push(`${recorded.bets.length} bets settled, ${expected.bets.length} placed`);
    }
    for (const field of ['stake', 'payout', 'commission', 'commissionOwed'] as const) {
      if (expected[field] !== recorded[field])
        diffs.push(`${field}: expected ${expected[field]}, recorded ${recorded[field]}`);
    }
    return diffs.length === 0
      ? [
          true,
          `stake ${expected.stake}, payout ${expected.payout}, commission ${expected.commission}, owed ${expected.commissionOwed}`,
        ]
      : [false, diffs.join('; ')];
  });
}

type Event = Record<string, unknown> & { type?: unknown; roundId?: unknown; data?: unknown };
const dataOf = (event: Event): Record<string, unknown> =>
  typeof event.data === 'object' && event.data !== null ? (event.data as Record<string, unknown>) : {};

function checkAudit(
  report: Report,
  bundle: ShoeBundle,
  raw: { statement: unknown; close: ShoeCloseStatement },
  options: VerifyOptions,
) {
  const { statement, audit } = bundle;
  const events = audit.events;
  const chain = verifyChain(events, statement.commitment);
  report.add(
    'audit.chain',
    chain.ok,
    chain.ok ? `${chain.length} events linked from the commitment to head ${chain.head}` : chain.detail,
  );
  const list = events.map((e) => e.event as Event);
  const ofType = (type: string) => list.filter((e) => e.type === type);

  report.try('audit.statement', () => {
    const opened = list[0];
    if (opened?.type !== 'SHOE_OPENED') return [false, 'the chain does not start with SHOE_OPENED'];
    const data = dataOf(opened);
    return canonicalJson(data.statement) === canonicalJson(raw.statement) &&
      data.signature === bundle.signature
      ? [true, 'SHOE_OPENED, the first event, carries this signed statement']
      : [false, 'SHOE_OPENED records another statement or signature than the bundle'];
  });

  const seedAt = list.findIndex((e) => typeof dataOf(e).clientSeed === 'string');
  const firstDeal = list.findIndex((e) => e.type === 'COUP_DEALT');
  const fixed = seedAt >= 0 ? dataOf(list[seedAt]!).clientSeed : undefined;
  report.add(
    'audit.client-seed',
    fixed === bundle.clientSeed && (firstDeal < 0 || seedAt < firstDeal),
    fixed === undefined
      ? 'the audit chain never records the client seed'
      : fixed !== bundle.clientSeed
        ? `the chain fixed client seed ${JSON.stringify(fixed)}, the bundle uses ${JSON.stringify(bundle.clientSeed)}`
        : firstDeal >= 0 && seedAt > firstDeal
          ? `the client seed was recorded at event ${seedAt}, after the first card (event ${firstDeal})`
          : `fixed at event ${seedAt}, after the commitment and before the first card`,
  );

  for (const round of bundle.rounds) {
    const mine = list.filter((e) => e.roundId === round.roundId);
    const find = (type: string) => mine.find((e) => e.type === type);
    const prefix = `audit.round.${round.number}`;
    const closed = find('BETTING_CLOSED');
    const bets = betsDigest(round.positions);
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
    if (round.status === 'SETTLED') {
      const dealt = find('COUP_DEALT');
      report.try(`${prefix}.dealt`, () => {
        if (!dealt) return [false, `the chain has no COUP_DEALT event for round ${round.roundId}`];
        const cards = round.coup ? parseAll(round.coup.cards) : [];
        return canonicalJson(dataOf(dealt).cards) === canonicalJson(cards)
          ? [true, `the cards were recorded when dealt: ${cardsText(cards)}`]
          : [
              false,
              `the chain recorded other cards for this coup than the bundle (${round.coup?.cards.join(' ')})`,
            ];
      });
      const settledEvent = find('ROUND_SETTLED');
      const settled = settlementsDigest(round.positions);
      report.add(
        `${prefix}.settlement`,
        settledEvent !== undefined && dataOf(settledEvent).settlementsDigest === settled,
        !settledEvent
          ? `the chain has no ROUND_SETTLED event for round ${round.roundId}`
          : dataOf(settledEvent).settlementsDigest === settled
            ? `payouts committed at settlement (digest ${settled})`
            : `the payouts in the bundle (digest ${settled}) are not the ones committed at settlement (${String(dataOf(settledEvent).settlementsDigest)})`,
      );
    } else {
      const voided = find('ROUND_VOIDED');
      const refunds = refundsDigest(round.positions);
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
  const dealtInChain = ofType('COUP_DEALT').length;
  const dealtInBundle = bundle.rounds.filter((r) => r.status === 'SETTLED').length;
  report.add(
    'audit.rounds',
    dealtInChain === dealtInBundle && ofType('ROUND_OPENED').length === bundle.rounds.length,
    dealtInChain === dealtInBundle && ofType('ROUND_OPENED').length === bundle.rounds.length
      ? `${bundle.rounds.length} rounds opened, ${dealtInChain} coups dealt, all in the bundle`
      : `the chain opened ${ofType('ROUND_OPENED').length} rounds and dealt ${dealtInChain} coups; the bundle has ${bundle.rounds.length} rounds and ${dealtInBundle} coups`,
  );

  const closedEvent = ofType('SHOE_CLOSED')[0];
  report.add(
    'audit.seed-revealed',
    closedEvent !== undefined && dataOf(closedEvent).serverSeed === bundle.serverSeed,
    !closedEvent
      ? 'the chain has no SHOE_CLOSED event'
      : dataOf(closedEvent).serverSeed === bundle.serverSeed
        ? 'SHOE_CLOSED reveals this server seed'
        : 'SHOE_CLOSED reveals another server seed than the bundle',
  );

  const close = audit.close;
  const head = events.length > 0 ? events[events.length - 1]!.hash : statement.commitment;
  // A rotation between open and close: the close names the next key, and the bundle carries it.
  const rotated = close.keyId !== statement.keyId;
  const closeProblems = [
    close.shoeId !== statement.shoeId && `shoe ${close.shoeId}`,
    close.commitment !== statement.commitment && `commitment ${close.commitment}`,
    close.head !== head && `head ${close.head} but the chain ends at ${head}`,
    close.length !== events.length && `length ${close.length} but the chain has ${events.length} events`,
    rotated &&
      audit.publicKey === undefined &&
      `key ${close.keyId} but the statement was signed by ${statement.keyId}, and the bundle carries no public key for ${close.keyId} (audit.publicKey)`,
  ].filter(Boolean);
  report.add(
    'audit.close',
    closeProblems.length === 0,
    closeProblems.length === 0
      ? `closed at ${close.closedAt} with head ${close.head} over ${close.length} events${rotated ? `, signed by the next key ${close.keyId}` : ''}`
      : `the close statement does not match: ${closeProblems.join('; ')}`,
  );
  let closeKey: Uint8Array | undefined;
  if (audit.publicKey === undefined) {
    try {
      closeKey = parsePublicKey(bundle.publicKey);
    } catch {
      // statement.public-key has failed on it already; the signature check below says so too.
    }
  } else {
    report.try('audit.public-key', () => {
      closeKey = parsePublicKey(audit.publicKey!);
      if (!rotated && keyFingerprint(closeKey) !== keyFingerprint(parsePublicKey(bundle.publicKey))) {
        return [
          false,
          `the close names the statement's key ${close.keyId}, but the bundle gives another public key for it`,
        ];
      }
      return keyCheck(close.keyId, closeKey, options);
    });
  }
  report.try('audit.close.signature', () => {
    if (!closeKey) return [false, 'no usable public key for the close statement'];
    const ok = verifyDerSignature(closeStatementBytes(raw.close), base64ToBytes(audit.signature), closeKey);
    return ok
      ? [
          true,
          `ECDSA P-256/SHA-256 signature of the chain head is valid${rotated ? ` (key ${close.keyId})` : ''}`,
        ]
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
