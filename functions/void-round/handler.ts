import { ENDPOINTS } from '@pyb/contracts';
import { voidRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';

export const handler = httpHandler(
  'void-round',
  ENDPOINTS['void-round'],
  // Signs the round head after ROUND_VOIDED (the receipt in the answer).
  ({ context, actor, params, body }) =>
    voidRound(useCases(context, keysOf(context)), actor, { ...params, ...body }),
);
