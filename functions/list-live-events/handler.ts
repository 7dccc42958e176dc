import { listLiveEventsContract } from '@pyb/contracts';
import { type LiveFeedStore, listLiveEvents, type Store } from '@pyb/core';
import { httpHandler } from '../src/http';
import { listLiveEventsRoute } from '../src/routes';

export const handler = httpHandler(
  listLiveEventsRoute,
  listLiveEventsContract,
  ({ context, actor, params, query }) =>
    listLiveEvents({ store: context.store as Store & LiveFeedStore }, actor, { ...params, ...query }),
);
