import { voidRoundContract } from '@pyb/contracts';
import { voidRound } from '@pyb/core/use-cases';
import { beaconOf } from '../src/beacon';
import { closeDeadlinesOf } from '../src/close-deadlines';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { publishingTable } from '../src/live';
import { queueOf } from '../src/queue';
import { voidRoundRoute } from '../src/routes';
import { seamlessOf } from '../src/seamless';
import { timeStamperOf } from '../src/time-stamps';

export const handler = httpHandler(
  voidRoundRoute,
  voidRoundContract,
  // Signs the round head after ROUND_VOIDED (the receipt in the answer), or hands refunds to the queue.
  // A void with burnCards burns the coup's cards: the shoe order (the unsealed seed, and the beacon
  // round for a shoe's first coup), and the close deadline when the burn ends the shoe.
  ({ context, actor, params, body }) =>
    voidRound(
      useCases(context, keysOf(context), {
        queue: queueOf(context),
        beacon: beaconOf(context),
        timeStamper: timeStamperOf(context),
        closeDeadlines: closeDeadlinesOf(context),
        ...seamlessOf(context),
      }),
      actor,
      { ...params, ...body },
    ).then((round) => publishingTable(context, round.tableId, round)),
);
