export {
  exportFeed,
  FEED_FILES,
  FEED_LIST_MAX_DAYS,
  FEED_MAX_BYTES,
  FEED_MAX_RANGE_MS,
  feedFileKey,
  feedRecords,
  getFeedFile,
  listFeedFiles,
  writeDailyFeed,
  yesterday,
} from './feed';
export * from './feed-format';
export * from './feed-records';
export { ggrReport } from './ggr';
