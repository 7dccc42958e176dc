import { ENDPOINTS } from '@pyb/contracts';
import { getShoe } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-shoe', ENDPOINTS['get-shoe'], ({ context, actor, params }) =>
  getShoe(useCases(context), actor, params),
);
