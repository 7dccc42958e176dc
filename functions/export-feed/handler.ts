import { ENDPOINTS } from '@pyb/contracts';
import { exportFeed } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'export-feed',
  ENDPOINTS['export-feed'],
  ({ context, actor, params, query }) => exportFeed(useCases(context), actor, { ...params, ...query }),
);
