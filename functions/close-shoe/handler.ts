import { closeShoeContract } from '@pyb/contracts';
import { closeShoe } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { publishingTable } from '../src/live';
import { closeShoeRoute } from '../src/routes';
import { rotationStamperOf } from '../src/time-stamps';

export const handler = httpHandler(closeShoeRoute, closeShoeContract, ({ context, actor, params, body }) =>
  closeShoe(useCases(context, keysOf(context), { timeStamper: rotationStamperOf(context) }), actor, {
    ...params,
    ...body,
  }).then((shoe) => publishingTable(context, shoe.tableId, shoe)),
);
