import { getFeedFileContract } from '@pyb/contracts';
import { getFeedFile } from '@pyb/core/use-cases';
import { feedFiles } from '../src/feed-files';
import { httpHandler } from '../src/http';
import { getFeedFileRoute } from '../src/routes';

export const handler = httpHandler(getFeedFileRoute, getFeedFileContract, ({ actor, params }) =>
  getFeedFile(feedFiles(), actor, params),
);
