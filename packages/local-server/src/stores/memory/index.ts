/**
 * The in-memory stores: what the server keeps lives as long as the process (the tests' choice).
 */
import { randomBytes } from 'node:crypto';
import { Pricing } from '../../model/cost.js';
import type { ObsStores } from '../types.js';
import { MemoryDatasetStore } from './datasets.js';
import { MemoryMediaStore } from './media.js';
import { MemoryPromptStore } from './prompts.js';
import { MemoryScoreStore } from './scores.js';
import { MemorySpanStore } from './spans.js';
import { MemoryTraceStore } from './traces.js';

/** Opens a fresh set of in-memory stores; `pricing` prices the trace list's costs. */
export function createMemoryStores(pricing: Pricing = new Pricing()): ObsStores {
  const spans = new MemorySpanStore();
  const stores: ObsStores = {
    spans,
    traces: new MemoryTraceStore(spans, pricing),
    scores: new MemoryScoreStore(),
    datasets: new MemoryDatasetStore(),
    prompts: new MemoryPromptStore(),
    media: new MemoryMediaStore(),
    urlKey: randomBytes(32),
    file: undefined,
    storage: undefined,
    deleteTraces(traceIds) {
      const removed = spans.deleteTraces(traceIds);
      stores.scores.deleteForTraces(traceIds);
      stores.media.deleteForTraces(traceIds);
      return removed;
    },
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
