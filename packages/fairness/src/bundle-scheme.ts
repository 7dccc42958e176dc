/**
 * What a bundle or proof holds by its statement's scheme (docs/provably-fair.md §15.11): a pyb-shoe/3
 * shoe records, for every coup and burn, the beacon round it was drawn from, the start's burned cards,
 * and signs the head of every BETTING_CLOSED; a pyb-shoe/2 shoe has none of these — refused, not
 * ignored, so a v2 bundle parses exactly as before they existed.
 */
import type * as z from 'zod';

interface SchemeShaped {
  statement: { scheme: string };
  burn: { cards?: unknown };
  heads: readonly { statement: { type: string } }[];
  rounds: readonly { coup: { beacon?: unknown } | null; burned?: { beacon?: unknown } | undefined }[];
  voids?: { rounds: readonly { coup: { beacon?: unknown } | null }[] };
}

export function schemeIssues(evidence: SchemeShaped, ctx: z.RefinementCtx): void {
  const v3 = evidence.statement.scheme === 'pyb-shoe/3';
  const issue = (path: (string | number)[], present: boolean) => {
    if (present === v3) return;
    ctx.addIssue({
      code: 'custom',
      path,
      message: v3 ? 'required in a pyb-shoe/3 shoe' : 'only a pyb-shoe/3 shoe records it',
    });
  };
  issue(['burn', 'cards'], evidence.burn.cards !== undefined);
  evidence.rounds.forEach((round, i) => {
    if (round.coup) issue(['rounds', i, 'coup', 'beacon'], round.coup.beacon !== undefined);
    if (round.burned) issue(['rounds', i, 'burned', 'beacon'], round.burned.beacon !== undefined);
  });
  evidence.voids?.rounds.forEach((round, i) => {
    if (round.coup) issue(['voids', 'rounds', i, 'coup', 'beacon'], round.coup.beacon !== undefined);
  });
  if (!v3) {
    evidence.heads.forEach((head, i) => {
      if (head.statement.type === 'BETTING_CLOSED') issue(['heads', i, 'statement', 'type'], true);
    });
  }
}
