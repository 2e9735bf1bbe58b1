/**
 * The in-memory stores: what the server keeps lives as long as the process (the tests' choice).
 */
import { randomBytes } from 'node:crypto';
import type { ObsStores } from '../types.js';
import { MemoryDatasetStore } from './datasets.js';
import { MemoryMediaStore } from './media.js';
import { MemoryPromptStore } from './prompts.js';
import { MemoryScoreStore } from './scores.js';
import { MemorySpanStore } from './spans.js';
import { MemoryTraceStore } from './traces.js';

/** Opens a fresh set of in-memory stores. */
export function createMemoryStores(): ObsStores {
  const spans = new MemorySpanStore();
  const stores = {
    spans,
    traces: new MemoryTraceStore(spans),
    scores: new MemoryScoreStore(),
    datasets: new MemoryDatasetStore(),
    prompts: new MemoryPromptStore(),
    media: new MemoryMediaStore(),
    urlKey: randomBytes(32),
    file: undefined,
    clear() {
      spans.clear();
      stores.scores.clear();
      stores.datasets.clear();
      stores.prompts.clear();
      stores.media.clear();
    },
    close() {},
  };
  return stores;
}
