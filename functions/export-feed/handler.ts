import { exportFeedContract } from '@pyb/contracts';
import { exportFeed } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { exportFeedRoute } from '../src/routes';

export const handler = httpHandler(exportFeedRoute, exportFeedContract, ({ context, actor, params, query }) =>
  exportFeed(useCases(context), actor, { ...params, ...query }),
);
