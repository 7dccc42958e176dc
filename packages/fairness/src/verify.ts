/**
 * The standalone verifier (docs/provably-fair.md §13): from a closed shoe's audit bundle or public
 * proof, check the keys and every signature against the time it was made, re-check the contributions
 * and the beacon round, re-deal the shoe, replay every coup (and in a bundle re-settle every
 * position), and re-walk the audit chain: sequence numbers, the shoe every event names, the order of
 * every round's events, the signed heads and the signed close. Every check is reported, passed or
 * failed, so a reader sees what was verified and not only what broke. The CLI, the platform's replay
 * and the browser page all call this one function.
 */
import { formatCard, parseCard, type TableConfig } from '@pyb/engine';
import type { Event } from './audit-events';
import { type BeaconNetwork, QUICKNET, verifyBeaconRound } from './beacon';
import { type BeaconPin, networkDifferences, pinnedNetwork } from './beacon-trust';
import {
  BUNDLE_FORMAT,
  PROOF_FORMAT,
  type ShoeBundle,
  ShoeBundleSchema,
  type ShoeProof,
  ShoeProofSchema,
} from './bundle';
import { hexToBytes } from './bytes';
import { contributionsDigest, shoeEntropyFor } from './entropy';
import type { SignedHead } from './heads';
import type { SignedKeyCertificate } from './keys';
import { dealShoe, type Shoe } from './shoe';
import { parsePublicKey } from './signature';
import {
  commitmentOf,
  MIN_BEACON_MARGIN_SECONDS,
  RULES_VERSION,
  SHOE_SCHEME_V3,
  type ShoeCloseStatement,
  type ShoeStatement,
  statementBytes,
  statementDigest,
} from './statement';
import { checkAudit } from './verify-audit';
import { KeyRing } from './verify-keys';
import { checkOwnSeeds, checkPreviousOpened, checkReceipts, type OwnSeed } from './verify-receipts';
import { type Check, Report, type Verdict, type Verification } from './verify-report';
import { checkRounds, checkVoidReport } from './verify-rounds';
import { checkShoeV3 } from './verify-shoe-v3';
import { checkTimeStamps } from './verify-timestamps';
import { voidReport } from './voids';

export type { Check, Verdict, Verification };

export interface VerifyOptions {
  /**
   * The operator's published key(s) (PEM or base64 SPKI): where trust starts. Without any, a
   * consistent shoe is `untrusted`, never `verified`.
   */
  trustedPublicKey?: string | readonly string[];
  /**
   * Every generation's certificate as the user obtained it from the service (GET /v1/signing-key's
   * `certificates`, oldest first). A generation is trusted when it is a trusted key or certified, in
   * these, by a trusted generation — never by a certificate found only in the evidence (F3). Each
   * generation may sign from its `validFrom` until the next one's, as these certificates date them.
   */
  keyCertificates?: readonly SignedKeyCertificate[];
  /**
   * Beacon networks to trust besides drand quicknet, each by all its fields (drand chain info, or a
   * beacon of our own by scheme, key, genesis and period): the chain hash is recomputed from them.
   */
  trustedBeacons?: readonly BeaconPin[];
  /**
   * The time-stamp authorities to trust (PEM or DER: a TSA's certificate or its CA's), as the user
   * obtained them from each TSA — never from a token or the bundle. Without any, a pyb-shoe/3 shoe's
   * time-stamps are not checked and the verdict is at best `untrusted`.
   */
  trustedTimeStampAuthorities?: readonly (string | Uint8Array)[];
  /**
   * Receipts the caller kept (verify-receipts.ts): signed heads (resolve, void and close-betting
   * answers), contributions' answers, shoe-opened answers. Each must match the evidence.
   */
  receipts?: readonly unknown[];
  /** Seeds a contributor gave, by their index (`--seed INDEX:TEXT`): each must be the shoe's there. */
  seeds?: readonly OwnSeed[];
  /** The previous shoe of the table (its bundle or proof): the statement must link to its close. */
  previous?: unknown;
}

type Evidence = ShoeBundle | ShoeProof;

/** Parses either form; a v1 bundle is named as such. */
function parseEvidence(input: unknown, report: Report): Evidence | undefined {
  const format = (input as { format?: unknown } | null)?.format;
  const schema = format === PROOF_FORMAT ? ShoeProofSchema() : ShoeBundleSchema();
  if (format === 'pyb-shoe-bundle/1') {
    report.add(
      'format',
      false,
      'pyb-shoe-bundle/1 is a pyb-shoe/1 shoe: its order did not depend on a public beacon or on player seeds, and this verifier checks pyb-shoe/2 and pyb-shoe/3',
    );
    return undefined;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    report.add(
      'format',
      false,
      `not a ${format === PROOF_FORMAT ? 'shoe proof' : `shoe bundle (${BUNDLE_FORMAT}) or proof (${PROOF_FORMAT})`}: ${issues.slice(0, 8).join('; ')}`,
    );
    return undefined;
  }
  return parsed.data;
}

/**
 * Resolves the verification of a bundle or proof; never rejects for bad evidence (a failed check
 * says what is wrong; rejects only if a curve's code cannot be loaded). Asynchronous because the
 * curves are loaded on first use (`verifyBeaconRound`, `verifyDerSignature`).
 */
export async function verifyShoe(input: unknown, options: VerifyOptions = {}): Promise<Verification> {
  const report = new Report();
  const evidence = parseEvidence(input, report);
  if (!evidence) return { verdict: 'failed', format: null, shoeId: null, checks: report.checks };
  // Signatures are checked over the signed objects exactly as received, before parsing could alter them.
  const raw = input as {
    statement: ShoeStatement;
    heads: SignedHead[];
    audit: { close: ShoeCloseStatement };
  };
  const { statement } = evidence;
  const table = statement.table as TableConfig;
  report.add(
    'format',
    true,
    `${evidence.format}, shoe ${statement.shoeId} (number ${statement.number} at table ${statement.tableId}), ${evidence.rounds.length} round(s)`,
  );

  const keys = await KeyRing.of(
    report,
    evidence.keys,
    options.trustedPublicKey,
    options.keyCertificates,
    options.trustedTimeStampAuthorities,
  );
  await checkStatement(report, evidence, raw.statement, keys, options);
  report.try('seed.commitment', () => {
    const commitment = commitmentOf(hexToBytes(evidence.serverSeed));
    return commitment === statement.commitment
      ? [true, `SHA-256(server seed) = ${commitment}, as committed`]
      : [
          false,
          `SHA-256(revealed server seed) = ${commitment}, but the statement committed to ${statement.commitment}`,
        ];
  });
  const beaconSigned = await verifyBeaconRound(statement.beacon, evidence.beacon);
  report.try('beacon.signature', () =>
    beaconSigned
      ? [
          true,
          `BLS signature of round ${evidence.beacon.round} by network ${statement.beacon.chainHash} is valid`,
        ]
      : [
          false,
          `the signature of beacon round ${evidence.beacon.round} does not verify with the network's public key`,
        ],
  );

  if (statement.scheme === SHOE_SCHEME_V3) {
    await checkShoeV3(
      report,
      evidence,
      table,
      evidence.audit.events.map((e) => e.event as Event),
    );
  } else {
    checkShoeV2(report, evidence, table);
  }
  await checkAudit(
    report,
    evidence,
    { statement: raw.statement, close: raw.audit.close, heads: raw.heads },
    keys,
  );
  if (statement.scheme === SHOE_SCHEME_V3) {
    await checkTimeStamps(
      report,
      evidence,
      raw.heads,
      evidence.audit.events.map((e) => e.event as Event),
      options.trustedTimeStampAuthorities ?? [],
    );
  }
  checkOwnSeeds(report, evidence, options.seeds ?? []);
  await checkReceipts(report, evidence, options.receipts ?? [], keys);
  keys.report(report);
  return {
    verdict: report.verdict,
    format: evidence.format,
    shoeId: statement.shoeId,
    checks: report.checks,
  };
}

/** pyb-shoe/2: the whole order dealt from the seeds and round R, every coup read off it. */
function checkShoeV2(report: Report, evidence: Evidence, table: TableConfig) {
  const { statement } = evidence;
  let shoe: Shoe | undefined;
  report.try('shoe.deal', () => {
    const entropy = shoeEntropyFor(statement, contributionsDigest(evidence.contributions), evidence.beacon);
    shoe = dealShoe({
      serverSeed: hexToBytes(evidence.serverSeed),
      clientSeed: entropy,
      shoeId: statement.shoeId,
      decks: statement.decks,
      cutCard: statement.cutCard,
    });
    return [true, `${shoe.order.length} cards dealt from the server seed and the shoe entropy ${entropy}`];
  });
  if (shoe) {
    const dealt = shoe;
    checkShoe(report, evidence, dealt);
    checkRounds(report, evidence.rounds, table, dealt);
    if (evidence.format === BUNDLE_FORMAT) {
      const rounds = evidence.rounds;
      checkVoidReport(report, evidence.voids, () => voidReport(table, dealt, rounds));
    }
  }
}

async function checkStatement(
  report: Report,
  evidence: Evidence,
  rawStatement: ShoeStatement,
  keys: KeyRing,
  options: VerifyOptions,
) {
  const { statement } = evidence;
  const { table } = statement;
  const sameDecks =
    statement.decks === table.decks &&
    statement.cutCard.minCardsBehind === table.cutCard.minCardsBehind &&
    statement.cutCard.maxCardsBehind === table.cutCard.maxCardsBehind;
  report.add(
    'statement.rules',
    sameDecks && statement.rulesVersion === RULES_VERSION,
    statement.rulesVersion !== RULES_VERSION
      ? `rules version ${statement.rulesVersion} is not the one this verifier replays (${RULES_VERSION})`
      : !sameDecks
        ? 'decks or cut-card bounds differ from the table configuration in the same statement'
        : `${statement.decks} decks, ${statement.cutCard.minCardsBehind}..${statement.cutCard.maxCardsBehind} cards behind the cut card, rules ${RULES_VERSION}, code ${statement.codeVersion}`,
  );
  const signed = await keys.signed(statement.keyId, statementBytes(rawStatement), evidence.signature);
  report.add(
    'statement.signature',
    signed.ok,
    signed.ok
      ? `ECDSA P-256/SHA-256 signature of the RFC 8785 statement by ${statement.keyId} is valid`
      : signed.detail,
  );
  const invalid = keys.invalidAt(statement.keyId, statement.createdAt);
  report.add(
    'statement.key',
    invalid === undefined,
    invalid ?? `${statement.keyId} was valid when the statement was made (${statement.createdAt})`,
  );
  checkBeaconNetwork(report, statement.beacon, options.trustedBeacons ?? []);
  const margin = statement.beacon.marginSeconds;
  report.add(
    'statement.margin',
    margin >= MIN_BEACON_MARGIN_SECONDS,
    margin >= MIN_BEACON_MARGIN_SECONDS
      ? `the beacon round comes at least ${margin} s after contributions close (minimum ${MIN_BEACON_MARGIN_SECONDS} s)`
      : `a margin of ${margin} s between the close of contributions and the beacon round is under the minimum of ${MIN_BEACON_MARGIN_SECONDS} s: the platform could close contributions once the round is out`,
  );
  checkPrevious(report, statement, options.previous);
  checkPreviousOpened(report, statement);
}

/**
 * The statement's beacon network against the networks trusted (drand quicknet, and the user's pins,
 * each chain hash recomputed from the pin's fields): the same chain hash with any other field is a
 * forgery (F4); a network not trusted is `untrusted`.
 */
function checkBeaconNetwork(report: Report, named: BeaconNetwork, pins: readonly BeaconPin[]) {
  let trusted: BeaconNetwork[];
  try {
    trusted = [QUICKNET, ...pins.map(pinnedNetwork)];
  } catch (error) {
    report.add(
      'statement.beacon',
      false,
      `a trusted beacon network given is malformed: ${(error as Error).message}`,
    );
    return;
  }
  const same = trusted.find((n) => n.chainHash === named.chainHash.toLowerCase());
  if (same) {
    const differences = networkDifferences(named, same);
    const name =
      same === QUICKNET
        ? 'drand quicknet (League of Entropy)'
        : `beacon network ${same.chainHash}, trusted by you`;
    report.add(
      'statement.beacon',
      differences.length === 0,
      differences.length === 0
        ? `${name}: scheme, public key, genesis and period as trusted`
        : `names the chain hash of ${name}, but not its network: ${differences.join('; ')}`,
    );
    return;
  }
  report.untrusted(
    'statement.beacon',
    `beacon network ${named.chainHash} is not one you trust (drand quicknet, or one given by all its fields): its rounds check out with the key the statement names, which whoever runs it holds; trust it explicitly to verify`,
  );
}

/** The statement's link to the table's previous shoe, checked against that shoe's evidence when given. */
function checkPrevious(report: Report, statement: ShoeStatement, previousInput: unknown) {
  const link = statement.previous;
  if (previousInput === undefined) {
    report.add(
      'statement.previous',
      (link === null) === (statement.number === 1) && (link === null || link.number === statement.number - 1),
      link === null
        ? statement.number === 1
          ? 'the first shoe of its table'
          : `shoe number ${statement.number} names no previous shoe`
        : link.number === statement.number - 1
          ? `follows shoe ${link.shoeId} (number ${link.number}), closed with head ${link.closeHead} (give the previous shoe to check it)`
          : `shoe number ${statement.number} names shoe number ${link.number} as the one before it`,
    );
    return;
  }
  const parsed =
    (previousInput as { format?: unknown })?.format === PROOF_FORMAT
      ? ShoeProofSchema().safeParse(previousInput)
      : ShoeBundleSchema().safeParse(previousInput);
  report.try('statement.previous', () => {
    if (!parsed.success) return [false, 'the previous shoe given is not a bundle or proof'];
    const previous = parsed.data;
    const problems = [
      link === null && 'the statement names no previous shoe',
      link &&
        link.shoeId !== previous.statement.shoeId &&
        `it names shoe ${link.shoeId}, not ${previous.statement.shoeId}`,
      link &&
        link.closeHead !== previous.audit.close.head &&
        `it names close head ${link.closeHead}, the previous shoe closed with ${previous.audit.close.head}`,
      previous.statement.tableId !== statement.tableId && 'the previous shoe is of another table',
      previous.statement.number !== statement.number - 1 &&
        `the previous shoe is number ${previous.statement.number}, this one ${statement.number}`,
      // The shoe before, by number, is also the one opened before: the same statement (D2).
      statement.previousOpened &&
        previous.statement.number === statement.previousOpened.number &&
        statementDigest(previous.statement) !== statement.previousOpened.statement &&
        `it names the statement ${statement.previousOpened.statement} as opened before it, the previous shoe's hashes to ${statementDigest(previous.statement)}`,
    ].filter(Boolean);
    return problems.length === 0
      ? [
          true,
          `follows shoe ${previous.statement.shoeId} (number ${previous.statement.number}), whose close head ${previous.audit.close.head} it names`,
        ]
      : [false, problems.join('; ')];
  });
}

function checkShoe(report: Report, evidence: Evidence, shoe: Shoe) {
  report.add(
    'shoe.cut-index',
    shoe.cutIndex === evidence.cutIndex,
    shoe.cutIndex === evidence.cutIndex
      ? `cut card before card ${shoe.cutIndex} (${shoe.order.length - shoe.cutIndex} cards behind it)`
      : `the seeds put the cut card before card ${shoe.cutIndex}, the evidence claims ${evidence.cutIndex}`,
  );
  report.try('shoe.burn', () => {
    const expected = `${formatCard(shoe.burn.shown)} shown, ${shoe.burn.burned} burned`;
    return parseCard(evidence.burn.shown) === shoe.burn.shown && evidence.burn.burned === shoe.burn.burned
      ? [true, expected]
      : [
          false,
          `expected ${expected}, the evidence claims ${evidence.burn.shown} shown, ${evidence.burn.burned} burned`,
        ];
  });
}

/** Throws TypeError for a trusted key that is not a P-256 public key (a caller's mistake, not a check). */
export function checkTrustedKeys(keys: readonly string[]): void {
  for (const key of keys) parsePublicKey(key);
}
