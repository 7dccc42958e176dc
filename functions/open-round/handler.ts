import { openRoundContract } from '@pyb/contracts';
import { openRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { publishingTable } from '../src/live';
import { roundDeadlinesOf } from '../src/round-deadlines';
import { openRoundRoute } from '../src/routes';
import { timeStamperOf } from '../src/time-stamps';

export const handler = httpHandler(
  openRoundRoute,
  openRoundContract,
  // Signs the head of the contributions' close when it opens a shoe's first round; schedules the
  // round's interrupted-game check.
  ({ context, actor, params, body }) =>
    openRound(
      useCases(context, keysOf(context), {
        timeStamper: timeStamperOf(context),
        roundDeadlines: roundDeadlinesOf(context),
      }),
      actor,
      { ...params, ...body },
    ).then((round) => publishingTable(context, round.tableId, round)),
);
