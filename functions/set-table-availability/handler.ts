import { setTableAvailabilityContract } from '@pyb/contracts';
import { setTableAvailability } from '@pyb/core/use-cases';
import { cadenceRunnerWhenStarting } from '../src/cadence';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { publishingTable } from '../src/live';
import { setTableAvailabilityRoute } from '../src/routes';
import { timeStamperOf } from '../src/time-stamps';

export const handler = httpHandler(
  setTableAvailabilityRoute,
  setTableAvailabilityContract,
  ({ context, actor, params, body }) =>
    setTableAvailability(
      useCases(context, keysOf(context), {
        timeStamper: timeStamperOf(context),
        cadence: cadenceRunnerWhenStarting(context),
      }),
      actor,
      { ...params, ...body },
    ).then((table) => publishingTable(context, table.tableId, table)),
);
