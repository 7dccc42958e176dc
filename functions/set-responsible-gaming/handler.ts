import { ENDPOINTS } from '@pyb/contracts';
import { setResponsibleGaming } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'set-responsible-gaming',
  ENDPOINTS['set-responsible-gaming'],
  ({ context, actor, params, body, idempotencyKey }) =>
    setResponsibleGaming(useCases(context), actor, { ...params, ...body, idempotencyKey }),
);
