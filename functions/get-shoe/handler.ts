import { getShoeContract } from '@pyb/contracts';
import { getShoe } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { getShoeRoute } from '../src/routes';

export const handler = httpHandler(getShoeRoute, getShoeContract, ({ context, actor, params }) =>
  getShoe(useCases(context), actor, params),
);
