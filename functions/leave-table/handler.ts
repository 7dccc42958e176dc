import { ENDPOINTS } from '@pyb/contracts';
import { leaveTable } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { seamlessOf } from '../src/seamless';

export const handler = httpHandler('leave-table', ENDPOINTS['leave-table'], ({ context, actor, params }) =>
  leaveTable(useCases(context, undefined, seamlessOf(context)), actor, params),
);
