import { getTableContract } from '@pyb/contracts';
import { getTable } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { getTableRoute } from '../src/routes';

export const handler = httpHandler(getTableRoute, getTableContract, ({ context, actor, params }) =>
  getTable(useCases(context), actor, params),
);
