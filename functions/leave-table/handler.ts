import { leaveTableContract } from '@pyb/contracts';
import { leaveTable } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { leaveTableRoute } from '../src/routes';
import { seamlessOf } from '../src/seamless';

export const handler = httpHandler(leaveTableRoute, leaveTableContract, ({ context, actor, params }) =>
  leaveTable(useCases(context, undefined, seamlessOf(context)), actor, params),
);
