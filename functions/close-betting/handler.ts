import { closeBettingContract } from '@pyb/contracts';
import { closeRoundBetting } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { publishingTable } from '../src/live';
import { closeBettingRoute } from '../src/routes';
import { timeStamperOf } from '../src/time-stamps';

export const handler = httpHandler(closeBettingRoute, closeBettingContract, ({ context, actor, params }) =>
  closeRoundBetting(
    useCases(context, keysOf(context), { timeStamper: timeStamperOf(context) }),
    actor,
    params,
  ).then((round) => publishingTable(context, round.tableId, round)),
);
