import { ENDPOINTS } from '@pyb/contracts';
import { listFeedFiles } from '@pyb/core/use-cases';
import { feedFiles } from '../src/feed-files';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'list-feed-files',
  ENDPOINTS['list-feed-files'],
  ({ actor, params, query }) => listFeedFiles(feedFiles(), actor, { ...params, ...query }),
);
