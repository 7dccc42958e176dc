import { ENDPOINTS } from '@pyb/contracts';
import { createTable } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler('create-table', ENDPOINTS['create-table'], ({ context, actor, body }) =>
  createTable(useCases(context), actor, body),
);
