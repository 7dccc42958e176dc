import { listShoesContract } from '@pyb/contracts';
import { listShoes } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { listShoesRoute } from '../src/routes';

export const handler = httpHandler(listShoesRoute, listShoesContract, ({ context, actor, params, query }) =>
  listShoes(useCases(context), actor, { ...params, ...query }),
);
