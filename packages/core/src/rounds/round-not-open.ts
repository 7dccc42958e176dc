import type { DomainError } from '../shared';
import { conflict, type RoundFacts } from '../shared';

/**
 * A bet (or a withdrawal) on a round that takes no more bets: "no va más" was called, or it is settled
 * or voided. Says what to do — bet on the table's next round — not only what is wrong.
 */
export const roundNotOpen = (facts: Pick<RoundFacts, 'roundId' | 'tableId'>): DomainError =>
  conflict(
    'ROUND_NOT_OPEN',
    `round ${facts.roundId} takes no more bets ("no va más" was called, or it is over): bet on the table's next round (POST /v1/tables/${facts.tableId}/rounds opens one)`,
  );
