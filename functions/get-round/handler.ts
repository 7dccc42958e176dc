import { getRoundContract } from '@pyb/contracts';
import { getRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { getRoundRoute } from '../src/routes';

export const handler = httpHandler(getRoundRoute, getRoundContract, ({ context, actor, params }) =>
  getRound(useCases(context), actor, params),
);
