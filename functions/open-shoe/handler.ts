import { openShoeContract } from '@pyb/contracts';
import { openShoe } from '@pyb/core/use-cases';
import { beaconOf } from '../src/beacon';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { publishingTable } from '../src/live';
import { openShoeRoute } from '../src/routes';
import { rotationStamperOf } from '../src/time-stamps';

export const handler = httpHandler(openShoeRoute, openShoeContract, ({ context, actor, params }) =>
  openShoe(
    useCases(context, keysOf(context), {
      beacon: beaconOf(context),
      timeStamper: rotationStamperOf(context),
    }),
    actor,
    params,
  ).then((shoe) => publishingTable(context, shoe.tableId, shoe)),
);
