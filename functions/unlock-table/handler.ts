import { unlockTableContract } from '@pyb/contracts';
import { unlockTable } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { publishingTable } from '../src/live';
import { unlockTableRoute } from '../src/routes';

export const handler = httpHandler(
  unlockTableRoute,
  unlockTableContract,
  ({ context, actor, params, body }) =>
    unlockTable(useCases(context), actor, { ...params, ...body }).then((table) =>
      publishingTable(context, params.tableId, table),
    ),
);
