import { ENDPOINTS } from '@pyb/contracts';
import { getTable } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-table', ENDPOINTS['get-table'], ({ context, actor, params }) =>
  getTable(useCases(context), actor, params),
);
