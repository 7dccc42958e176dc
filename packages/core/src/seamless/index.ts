export {
  abandonDebit,
  DEBIT_ABANDON_MS,
  deliverSeamlessTx,
  SeamlessDeliveryPending,
  sendToOutbox,
} from './delivery';
export { getSeamlessReport, listSeamlessTransactions, reconcileSeamlessDay } from './reconciliation';
export * from './tx';
