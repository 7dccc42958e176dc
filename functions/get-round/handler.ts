import { ENDPOINTS } from '@pyb/contracts';
import { getRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-round', ENDPOINTS['get-round'], ({ context, actor, params }) =>
  getRound(useCases(context), actor, params),
);
