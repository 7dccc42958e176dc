export { assertAvailable, availabilityLog, recordAvailability } from './availability';
export { controlCadence, pauseAtShoeEnd } from './cadence';
export { DEFAULT_BET_GATES, gateOf, MAX_BET_GATES } from './gates';
export { getTableHelp, type TableHelpView, tableHelp } from './help';
export {
  assertUnlocked,
  listTableEvents,
  lockForAudit,
  lockForCadence,
  shoeInPlay,
  underLockOut,
  unlockTable,
} from './lock-out';
export * from './scoreboard';
export * from './seats';
export { createTable, getTable, loadTable } from './tables';
