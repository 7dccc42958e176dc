import { setResponsibleGamingContract } from '@pyb/contracts';
import { setResponsibleGaming } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { setResponsibleGamingRoute } from '../src/routes';

export const handler = httpHandler(
  setResponsibleGamingRoute,
  setResponsibleGamingContract,
  ({ context, actor, params, body, idempotencyKey }) =>
    setResponsibleGaming(useCases(context), actor, { ...params, ...body, idempotencyKey }),
);
