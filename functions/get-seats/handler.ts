import { ENDPOINTS } from '@pyb/contracts';
import { getSeats } from '@pyb/core/use-cases';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-seats', ENDPOINTS['get-seats'], ({ context, actor, params }) =>
  getSeats(context, actor, params),
);
