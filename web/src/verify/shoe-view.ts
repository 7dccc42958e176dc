/**
 * A shoe re-dealt from its seeds with the library and the engine (dealShoe, ShoeRunner): what the
 * page draws (coups, roads), and the "seeds only" check when no signed bundle is at hand.
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
import { type Check, commitmentOf, dealShoe, hexToBytes, isHex } from '@pyb/fairness';
import type { CoupLike } from '../lib/coup';
import type { Verdict } from './verdict';

export interface DealtCoup {
  /** 0-based number of the coup in the shoe. */
  index: number;
  start: number;
  coup: CoupLike;
}

export interface DealtShoe {
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
export function verifySeeds(seeds: ShoeSeeds, commitment: string | undefined): SeedsVerification {
  const checks: Check[] = [];
  if (!isHex(seeds.serverSeed, 32)) {
    checks.push({ id: 'seed.format', ok: false, detail: 'the server seed must be 64 hex digits (32 bytes)' });
    return { verdict: 'failed', checks };
  }
  const computed = commitmentOf(hexToBytes(seeds.serverSeed));
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
    shoe = dealFromSeeds(seeds);
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
