import { listFeedFilesContract } from '@pyb/contracts';
import { listFeedFiles } from '@pyb/core/use-cases';
import { feedFiles } from '../src/feed-files';
import { httpHandler } from '../src/http';
import { listFeedFilesRoute } from '../src/routes';

export const handler = httpHandler(listFeedFilesRoute, listFeedFilesContract, ({ actor, params, query }) =>
  listFeedFiles(feedFiles(), actor, { ...params, ...query }),
);
