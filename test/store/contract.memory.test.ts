/** The Store contract (store/contract.ts) on the in-memory Store: the fast tier. */
import { MemoryStore } from '@pyb/store-memory';
import { storeContract } from './contract';

storeContract('MemoryStore', async () => ({ store: new MemoryStore() }));
