import { ENDPOINTS } from '@pyb/contracts';
import { ggrReport } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'ggr-report',
  ENDPOINTS['ggr-report'],
  ({ context, actor, params, query }) => ggrReport(useCases(context), actor, { ...params, ...query }),
);
