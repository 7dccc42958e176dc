export { type ArchiveCheck, checkArchive, type MissingShoe } from './archive-check';
export {
  exportFeed,
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
