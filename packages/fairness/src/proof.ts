/**
 * The public proof of a closed shoe: the audit bundle without what is personal or money (positions,
 * their bets and settlements, the void report's amounts). Everything a player needs to re-deal the
 * shoe, replay every coup and re-walk the chain up to the signed close stays; the chain's events
 * carry no player id and no amount in clear (docs/provably-fair.md §11), only digests.
 */
import { PROOF_FORMAT, type ShoeBundle, type ShoeProof } from './bundle';

export function shoeProof(bundle: ShoeBundle): ShoeProof {
  return {
    format: PROOF_FORMAT,
    statement: bundle.statement,
    signature: bundle.signature,
    keys: bundle.keys,
    serverSeed: bundle.serverSeed,
    contributions: bundle.contributions,
    beacon: bundle.beacon,
    cutIndex: bundle.cutIndex,
    burn: bundle.burn,
    rounds: bundle.rounds.map((r) => ({
      roundId: r.roundId,
      number: r.number,
      status: r.status,
      ...(r.voidReason !== undefined && { voidReason: r.voidReason }),
      coup: r.coup,
      ...(r.burned !== undefined && { burned: r.burned }),
    })),
    heads: bundle.heads,
    ...(bundle.anchors !== undefined && { anchors: bundle.anchors }),
    audit: bundle.audit,
  };
}
