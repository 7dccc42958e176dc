/** The Store contract (store/contract.ts) on the in-memory Store: the fast tier. */
import { MemoryStore } from '@pyb/store-memory';
import { storeContract } from './contract';

storeContract('MemoryStore', async () => {
  const store = new MemoryStore();
  return { store, putRaw: store.raw.put };
});
