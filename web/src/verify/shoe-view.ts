/**
 * A shoe re-dealt from its seeds with the library and the engine (dealShoe, ShoeRunner; a pyb-shoe/3
 * shoe by replayShoeV3 over each coup's own beacon round): what the page draws (coups, roads), and
 * the "seeds only" check when no signed bundle is at hand.
 */
import {
  type AfterCutCard,
  type CoupResult,
  formatCard,
  type ResultsPanel,
  resultsPanel,
  roadEntryOf,
  ShoeRunner,
} from '@pyb/engine';
import {
  beaconRandomness,
  type Check,
  CONTRIBUTION_KINDS,
  type Contribution,
  type ContributionKind,
  commitmentOf,
  contributionsDigest,
  dealShoe,
  hexToBytes,
  isHex,
  replayShoeV3,
  type ShoeStepV3,
  shoeEntropy,
  shoeEntropyV3,
} from '@pyb/fairness';
import type { CoupLike } from '../lib/coup';
import type { Verdict } from './verdict';

export interface DealtCoup {
  /** 0-based number of the coup in the shoe. */
  index: number;
  start: number;
  coup: CoupLike;
  /** pyb-shoe/3: the shoe's round that played it, and the beacon round its cards were drawn from. */
  round?: number;
  beacon?: number;
}

export interface DealtShoe {
  scheme: 'pyb-shoe/2' | 'pyb-shoe/3';
  /** pyb-shoe/3: the cards of dealer-error voids, burned unplayed (their rounds are not coups). */
  burns?: number;
  cards: number;
  cutIndex: number;
  burn: { shown: string; burned: number };
  coups: DealtCoup[];
  panel: ResultsPanel;
}

export interface ShoeSeeds {
  serverSeed: string;
  clientSeed: string;
  shoeId: string;
  decks: number;
  cutCard: { minCardsBehind: number; maxCardsBehind: number };
  afterCutCard: AfterCutCard;
}

/** The beacon round that fixes the order: its network's chain hash, its number and its signature (hex). */
export interface BeaconInput {
  chainHash: string;
  round: number;
  signature: string;
}

/**
 * Seeds as pyb-shoe/2 defines them (docs/provably-fair.md §5–§6): the server seed, the contributed
 * seeds in their recorded order and the beacon round. The shoe entropy is computed from them.
 */
export type PastedSeeds = Omit<ShoeSeeds, 'clientSeed'> & {
  contributions: Contribution[];
  beacon: BeaconInput;
};

/** The stream's client input of pyb-shoe/2, by the library's own functions (never re-implemented). */
export const entropyOf = (inputs: {
  shoeId: string;
  commitment: string;
  contributions: readonly Contribution[];
  beacon: BeaconInput;
}): string =>
  shoeEntropy({
    shoeId: inputs.shoeId,
    commitment: inputs.commitment,
    contributions: contributionsDigest(inputs.contributions),
    beacon: inputs.beacon,
  });

/**
 * The contributed seeds as pasted, one a line in their recorded order: the kind (`PLAYER` or
 * `OPERATOR`), one space, then the seed exactly as given (it may hold spaces and colons). Blank lines
 * are skipped; a line of another shape is an error naming it.
 */
export function parseContributions(text: string): Contribution[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.map((line, index) => {
    const space = line.indexOf(' ');
    const kind = line.slice(0, space);
    const seed = line.slice(space + 1);
    if (space < 0 || !(CONTRIBUTION_KINDS as readonly string[]).includes(kind) || seed === '')
      throw new RangeError(
        `seed line ${index + 1} must be "PLAYER <seed>" or "OPERATOR <seed>", not ${JSON.stringify(line)}`,
      );
    return { index, kind: kind as ContributionKind, seed };
  });
}

export const coupLike = (result: CoupResult): CoupLike => ({
  player: { cards: result.player.cards.map(formatCard), total: result.player.total },
  banker: { cards: result.banker.cards.map(formatCard), total: result.banker.total },
  winner: result.winner,
  natural: result.natural,
  playerPair: result.playerPair,
  bankerPair: result.bankerPair,
  steps: result.steps.map((s) => ({
    action: s.action,
    to: s.to,
    card: s.action === 'STAND' ? null : formatCard(s.card),
    rule: s.rule,
    note: s.note,
  })),
});

/** Every coup the seeds deal, to the cut card (throws on seeds the library refuses). */
export function dealFromSeeds(seeds: ShoeSeeds): DealtShoe {
  const shoe = dealShoe({
    serverSeed: hexToBytes(seeds.serverSeed),
    clientSeed: seeds.clientSeed,
    shoeId: seeds.shoeId,
    decks: seeds.decks,
    cutCard: seeds.cutCard,
  });
  const runner = new ShoeRunner({ afterCutCard: seeds.afterCutCard }, shoe.order, shoe.cutIndex);
  const played = runner.all();
  return {
    scheme: 'pyb-shoe/2',
    cards: shoe.order.length,
    cutIndex: shoe.cutIndex,
    burn: { shown: formatCard(shoe.burn.shown), burned: shoe.burn.burned },
    coups: played.map((c) => ({ index: c.index, start: c.start, coup: coupLike(c.result) })),
    panel: resultsPanel(played.map((c) => roadEntryOf(c.result))),
  };
}

export interface SeedsVerification {
  verdict: Verdict;
  checks: Check[];
  shoe?: DealtShoe;
}

/**
 * Seeds pasted by hand: the commitment (when given) and the deal are checked; the verdict is at best
 * `untrusted`, since no signature ties these seeds to the operator (drop the signed bundle for that).
 */
export function verifySeeds(pasted: PastedSeeds, commitment: string | undefined): SeedsVerification {
  const checks: Check[] = [];
  if (!isHex(pasted.serverSeed, 32)) {
    checks.push({ id: 'seed.format', ok: false, detail: 'the server seed must be 64 hex digits (32 bytes)' });
    return { verdict: 'failed', checks };
  }
  const computed = commitmentOf(hexToBytes(pasted.serverSeed));
  if (commitment) {
    const ok = computed === commitment.trim().toLowerCase();
    checks.push({
      id: 'seed.commitment',
      ok,
      detail: ok
        ? `SHA-256(server seed) = ${computed}, as committed`
        : `SHA-256(server seed) = ${computed}, not the commitment ${commitment}`,
    });
  } else {
    checks.push({
      id: 'seed.commitment',
      ok: true,
      detail: `SHA-256(server seed) = ${computed}: compare it with the commitment published before the first bet`,
    });
  }
  let shoe: DealtShoe | undefined;
  try {
    // The entropy mixes the commitment of this server seed: a pasted commitment that differs has
    // already failed above.
    const { contributions, beacon, ...rest } = pasted;
    const clientSeed = entropyOf({ shoeId: pasted.shoeId, commitment: computed, contributions, beacon });
    checks.push({
      id: 'seed.entropy',
      ok: true,
      detail: `shoe entropy ${clientSeed}: ${contributions.length} seed${contributions.length === 1 ? '' : 's'} mixed in (${contributions.filter((c) => c.kind === 'PLAYER').length} from players), beacon round ${beacon.round}`,
    });
    shoe = dealFromSeeds({ ...rest, clientSeed });
    checks.push({
      id: 'shoe.deal',
      ok: true,
      detail: `${shoe.cards} cards, cut card before card ${shoe.cutIndex}, burn ${shoe.burn.shown} shown and ${shoe.burn.burned} burned, ${shoe.coups.length} coups`,
    });
  } catch (error) {
    checks.push({ id: 'shoe.deal', ok: false, detail: (error as Error).message });
  }
  checks.push({
    id: 'trust.keys',
    ok: false,
    detail:
      'seeds only: no signed statement ties them to the operator (drop the shoe bundle to check the signatures)',
  });
  const consistent = checks.filter((c) => c.id !== 'trust.keys').every((c) => c.ok);
  return { verdict: consistent ? 'untrusted' : 'failed', checks, shoe };
}

/** What dealFromBundle reads of a bundle or proof. */
interface BundleSeeds {
  serverSeed: string;
  contributions: Contribution[];
  beacon: { round: number; signature: string };
  statement: Pick<ShoeSeeds, 'shoeId' | 'decks' | 'cutCard'> & {
    scheme: string;
    commitment: string;
    beacon: { chainHash: string };
    table: Pick<ShoeSeeds, 'afterCutCard'>;
  };
  rounds: {
    number: number;
    status: string;
    coup: { beacon?: { round: number; signature: string } } | null;
    burned?: { beacon?: { round: number; signature: string } };
  }[];
}

/**
 * The shoe as a bundle's (or proof's) seeds deal it, undefined when they do not: pyb-shoe/2's whole
 * order to the cut card; for pyb-shoe/3, the coups played — re-drawn, in the rounds' order, each from
 * the beacon round the bundle names for it (dealer-error burns from theirs). No order exists beyond
 * them: the cards of a coup never dealt were never drawn. Whether those rounds are the ones named
 * when betting closed is the verifier's check (round.N.beacon-named), not this view's.
 */
export function dealFromBundle(bundle: unknown): DealtShoe | undefined {
  const b = bundle as BundleSeeds;
  try {
    const entropyInputs = {
      shoeId: b.statement.shoeId,
      commitment: b.statement.commitment,
      contributions: contributionsDigest(b.contributions),
      beacon: {
        chainHash: b.statement.beacon.chainHash,
        round: b.beacon.round,
        signature: b.beacon.signature,
      },
    };
    const common = {
      serverSeed: b.serverSeed,
      shoeId: b.statement.shoeId,
      decks: b.statement.decks,
      cutCard: b.statement.cutCard,
      afterCutCard: b.statement.table.afterCutCard,
    };
    // pyb-shoe/2: the stream's client input is the shoe entropy (docs/provably-fair.md §5.4).
    if (b.statement.scheme !== 'pyb-shoe/3')
      return dealFromSeeds({ ...common, clientSeed: shoeEntropy(entropyInputs) });
    const steps: (ShoeStepV3 & { round: number })[] = [];
    for (const r of b.rounds) {
      const beacon = r.status === 'SETTLED' ? r.coup?.beacon : r.burned?.beacon;
      if (!beacon) continue;
      const kind = r.status === 'SETTLED' ? 'COUP' : 'BURN';
      steps.push({
        kind,
        round: r.number,
        beacon: { round: beacon.round, randomness: beaconRandomness(beacon.signature) },
      });
    }
    const replay = replayShoeV3(
      { ...common, serverSeed: hexToBytes(b.serverSeed), entropy: shoeEntropyV3(entropyInputs) },
      steps,
    );
    const coups: DealtCoup[] = [];
    const played: CoupResult[] = [];
    replay.steps.forEach((step, i) => {
      if (step.kind !== 'COUP') return;
      played.push(step.result);
      coups.push({
        index: step.index,
        start: step.start,
        coup: coupLike(step.result),
        round: steps[i]!.round,
        beacon: step.beacon.round,
      });
    });
    return {
      scheme: 'pyb-shoe/3',
      burns: replay.steps.length - coups.length,
      cards: b.statement.decks * 52,
      cutIndex: replay.start.cutIndex,
      burn: { shown: formatCard(replay.start.burn.shown), burned: replay.start.burn.burned },
      coups,
      panel: resultsPanel(played.map(roadEntryOf)),
    };
  } catch {
    return undefined;
  }
}
