/**
 * Seed contributions (docs/provably-fair.md §5.2): before a shoe's first round, players (through the
 * operator's front end) each add a seed; each is recorded in order in the audit chain
 * (SEED_CONTRIBUTED). Opening the first round closes them: the operator's client seed, if given, is
 * the last one, and CONTRIBUTIONS_CLOSED commits their digest and names the beacon round that will fix
 * the order — the first published `beaconMarginSeconds` after this close. Its chain head is signed
 * and kept as a receipt. From then on no seed is taken.
 */
import {
  beaconRoundAfter,
  type Contribution,
  type ContributionKind,
  clientSeedProblem,
  contributionsDigest,
  MAX_CONTRIBUTIONS,
  type SignedHead,
} from '@pyb/fairness';
import type { Actor, AuditRecord, ContributionView, ShoeRecord } from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  conflict,
  invalid,
  tooMuchContention,
  tryTransact,
  writeOnce,
} from '../shared';
import { chainRecord, eventAt, latest, nextAudit, parseAuditLog, putAudit } from '../trail';
import { loadShoe } from './load-shoe';
import { signHead } from './signing';

/** A seed as given, checked: 1..256 UTF-8 bytes of clean text (@pyb/fairness clientSeedProblem). */
export function checkSeed(
  seed: unknown,
  code: 'SEED_INVALID' | 'CLIENT_SEED_INVALID' = 'SEED_INVALID',
): string {
  const problem = clientSeedProblem(seed);
  if (problem) throw invalid(code, `${code === 'SEED_INVALID' ? 'the seed' : 'the client seed'} ${problem}`);
  return seed as string;
}

/** A player's seed, added to the shoe before its first round (operator or admin key). */
export async function contributeSeed(
  ctx: Ctx,
  actor: Actor,
  input: { shoeId: string; seed: string },
): Promise<ContributionView> {
  const seed = checkSeed(input.seed);
  for (const attempt of attempts(ctx)) {
    const shoe = await loadShoe(ctx, actor, input.shoeId, 'write');
    if (shoe.status !== 'OPEN') throw conflict('SHOE_NOT_OPEN', `shoe ${shoe.shoeId} is ${shoe.status}`);
    if (shoe.contributionsClosed) {
      throw conflict(
        'CONTRIBUTIONS_CLOSED',
        `shoe ${shoe.shoeId}'s first round has opened: its seeds are fixed (closed at ${shoe.contributionsClosed.at})`,
      );
    }
    const index = shoe.contributions ?? 0;
    if (index >= MAX_CONTRIBUTIONS) {
      throw conflict('CONTRIBUTIONS_FULL', `shoe ${shoe.shoeId} already has ${MAX_CONTRIBUTIONS} seeds`);
    }
    const record = await nextAudit(ctx.store, shoe.shoeId, 'SEED_CONTRIBUTED', undefined, ctx.now(), {
      index,
      kind: 'PLAYER',
      seed,
    });
    const done = await tryTransact(ctx.store, [
      {
        kind: 'update',
        entity: 'shoe',
        key: { shoeId: shoe.shoeId },
        add: { contributions: 1 },
        expect: { status: 'OPEN', contributionsClosed: null, contributions: index },
      },
      putAudit(record),
    ]);
    if (done) {
      // The contributor's receipt (C1): the chain head after his seed, signed. A seed slipped in before
      // his, or the order changed, no longer matches it. Not stored: his to keep (the head is the
      // event's hash, which the chain keeps). A failure to sign leaves the seed recorded, unreceipted.
      const receipt = await signHead(ctx, shoe, record, 'SEED_CONTRIBUTED');
      return {
        shoeId: shoe.shoeId,
        index,
        kind: 'PLAYER',
        seed,
        seq: record.seq,
        head: record.hash,
        at: eventAt(record)!,
        receipt,
      };
    }
    await backoff(attempt);
  }
  throw tooMuchContention('contributing a seed');
}

/** The seeds the chain recorded, in order. */
export async function recordedContributions(ctx: Ctx, shoeId: string): Promise<Contribution[]> {
  const log = parseAuditLog(await ctx.store.listAudit(shoeId));
  return log.events
    .filter((p) => p.event?.type === 'SEED_CONTRIBUTED')
    .map((p) => {
      const d = p.event!.data as { index: number; kind: ContributionKind; seed: string };
      return { index: d.index, kind: d.kind, seed: d.seed };
    });
}

/**
 * Closes the contributions of `shoe` (read just before): the operator's seed as the last one, then
 * CONTRIBUTIONS_CLOSED with their digest and the beacon round, in one transaction conditional on no
 * seed having been added since the read. False when that condition failed (read again). The head is
 * signed right after (signContributionsHead).
 */
export async function closeContributions(
  ctx: Ctx,
  shoe: ShoeRecord,
  operatorSeed: string | undefined,
): Promise<boolean> {
  const count = shoe.contributions ?? 0;
  const contributions = await recordedContributions(ctx, shoe.shoeId);
  if (contributions.length !== count) return false; // a contribution is being written: read again
  const records: AuditRecord[] = [];
  const head = await ctx.store.auditHead(shoe.shoeId);
  if (!head) throw new Error(`shoe ${shoe.shoeId} has no audit chain`);
  const at = latest(ctx.now(), eventAt(head) ?? ctx.now());
  let prev: { seq: number; hash: string } = head;
  if (operatorSeed !== undefined) {
    const own: Contribution = { index: count, kind: 'OPERATOR', seed: operatorSeed };
    contributions.push(own);
    prev = chainRecord(prev, shoe.shoeId, 'SEED_CONTRIBUTED', undefined, at, { ...own });
    records.push(prev as AuditRecord);
  }
  const digest = contributionsDigest(contributions);
  const beaconRound = beaconRoundAfter(shoe.statement.beacon, at, shoe.statement.beacon.marginSeconds);
  const closed = chainRecord(prev, shoe.shoeId, 'CONTRIBUTIONS_CLOSED', undefined, at, {
    count: contributions.length,
    digest,
    beaconRound,
  });
  records.push(closed);
  return tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'shoe',
      key: { shoeId: shoe.shoeId },
      set: {
        contributionsClosed: { at, seq: closed.seq, count: contributions.length, digest, beaconRound },
        contributions: contributions.length,
        ...(operatorSeed !== undefined && { clientSeed: operatorSeed }),
      },
      expect: { status: 'OPEN', contributionsClosed: null, contributions: count },
    },
    ...records.map(putAudit),
  ]);
}

/** Signs the chain head after CONTRIBUTIONS_CLOSED, once (resumable: a crash before it is caught up later). */
export async function signContributionsHead(ctx: Ctx, shoe: ShoeRecord): Promise<SignedHead | undefined> {
  const closed = shoe.contributionsClosed;
  if (!closed) return undefined;
  if (closed.head) return closed.head;
  const record = await ctx.store.get('audit', { shoeId: shoe.shoeId, seq: closed.seq });
  if (!record) throw new Error(`shoe ${shoe.shoeId}: CONTRIBUTIONS_CLOSED (event ${closed.seq}) is missing`);
  const head = await signHead(ctx, shoe, record, 'CONTRIBUTIONS_CLOSED');
  // Never taken as signed unless it is stored: a round must not open on an unsigned close.
  return writeOnce(ctx, 'signing the close of contributions', {
    entity: 'shoe',
    key: { shoeId: shoe.shoeId },
    path: 'contributionsClosed.head',
    value: head,
    expect: { 'contributionsClosed.seq': closed.seq },
  });
}
