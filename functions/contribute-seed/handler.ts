import { contributeSeedContract } from '@pyb/contracts';
import { contributeSeed } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { contributeSeedRoute } from '../src/routes';

export const handler = httpHandler(
  contributeSeedRoute,
  contributeSeedContract,
  ({ context, actor, params, body }) => contributeSeed(useCases(context), actor, { ...params, ...body }),
);
