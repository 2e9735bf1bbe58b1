/**
 * The store seam's contract, run on every implementation of it (today: memory).
 */
import { createMemoryStores } from '../src/stores/memory/index.js';
import { storeContract } from './store-contract.js';

storeContract('memory', createMemoryStores);
