import { getSeatsContract } from '@pyb/contracts';
import { getSeats } from '@pyb/core/use-cases';
import { httpHandler } from '../src/http';
import { getSeatsRoute } from '../src/routes';

export const handler = httpHandler(getSeatsRoute, getSeatsContract, ({ context, actor, params }) =>
  getSeats(context, actor, params),
);
