import { resolveRoundContract } from '@pyb/contracts';
import { resolveRound } from '@pyb/core/use-cases';
import { beaconOf } from '../src/beacon';
import { closeDeadlinesOf } from '../src/close-deadlines';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { publishingTable } from '../src/live';
import { queueOf } from '../src/queue';
import { resolveRoundRoute } from '../src/routes';
import { seamlessOf } from '../src/seamless';
import { timeStamperOf } from '../src/time-stamps';

export const handler = httpHandler(resolveRoundRoute, resolveRoundContract, ({ context, actor, params }) =>
  resolveRound(
    useCases(context, keysOf(context), {
      beacon: beaconOf(context),
      timeStamper: timeStamperOf(context),
      closeDeadlines: closeDeadlinesOf(context),
      queue: queueOf(context),
      ...seamlessOf(context),
    }),
    actor,
    params,
  ).then((round) => publishingTable(context, round.tableId, round)),
);
