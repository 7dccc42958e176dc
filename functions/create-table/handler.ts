import { createTableContract } from '@pyb/contracts';
import { createTable } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { createTableRoute } from '../src/routes';

export const handler = httpHandler(createTableRoute, createTableContract, ({ context, actor, body }) =>
  createTable(useCases(context), actor, body),
);
