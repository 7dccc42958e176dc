export {
  catchUpFeed,
  LIVE_PAGE_MAX,
  type LiveDeps,
  listLiveEvents,
  publishTable,
  tableMessage,
} from './feed';
export { betMessages, payoutMessages } from './player';
export { auditDrafts, coupDrafts, stakedTotals, tableEventDraft } from './project';
export {
  grantTopics,
  LIVE_ROOT,
  type LiveGrant,
  liveGrant,
  mayPublish,
  maySubscribe,
  playerTopic,
  tableTopic,
} from './topics';
