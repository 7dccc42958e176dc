import { ENDPOINTS } from '@pyb/contracts';
import { getFeedFile } from '@pyb/core/use-cases';
import { feedFiles } from '../src/feed-files';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-feed-file', ENDPOINTS['get-feed-file'], ({ actor, params }) =>
  getFeedFile(feedFiles(), actor, params),
);
