import { ENDPOINTS } from '@pyb/contracts';
import { contributeSeed } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'contribute-seed',
  ENDPOINTS['contribute-seed'],
  ({ context, actor, params, body }) => contributeSeed(useCases(context), actor, { ...params, ...body }),
);
