import { ENDPOINTS } from '@pyb/contracts';
import { getSeamlessReport } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'seamless-report',
  ENDPOINTS['seamless-report'],
  ({ context, actor, params }) => getSeamlessReport(useCases(context), actor, params),
);
