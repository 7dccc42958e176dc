import { abandonShoeContract } from '@pyb/contracts';
import { abandonShoe } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { publishingTable } from '../src/live';
import { abandonShoeRoute } from '../src/routes';

export const handler = httpHandler(
  abandonShoeRoute,
  abandonShoeContract,
  ({ context, actor, params, body }) =>
    abandonShoe(useCases(context), actor, { ...params, ...body }).then((shoe) =>
      publishingTable(context, shoe.tableId, shoe),
    ),
);
