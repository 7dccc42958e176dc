import { ENDPOINTS } from '@pyb/contracts';
import { unlockTable } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'unlock-table',
  ENDPOINTS['unlock-table'],
  ({ context, actor, params, body }) => unlockTable(useCases(context), actor, { ...params, ...body }),
);
