/**
 * Which cassette a call belongs to: the eval item whose task (or evaluator) made it, found through
 * async context, so concurrent items of one file share its cassette and a call outside any item
 * (a `beforeAll`, another test) is left alone.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Cassette, cassettePath } from './cassette.js';
import type { EvalCacheMode } from './mode.js';

/** What the cache does with calls made inside an eval item. */
export interface CacheScope {
  mode: Exclude<EvalCacheMode, 'off'>;
  cassette: Cassette;
  /** Calls `replay` had no answer for, named; the item fails with them. */
  misses: string[];
  /** Counted for the suite's summary line. */
  counts: CacheCounts;
}

/** How the calls of a suite were answered. */
export interface CacheCounts {
  replayed: number;
  recorded: number;
  missed: number;
}

const storage = new AsyncLocalStorage<CacheScope>();
const cassettes = new Map<string, Cassette>();

/** Runs `fn` with the calls it makes answered by `scope`. */
export function inCacheScope<T>(scope: CacheScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the running eval item, if the caller is inside one. */
export function activeCacheScope(): CacheScope | undefined {
  return storage.getStore();
}

/** The cassette of a test file (one per file and process). */
export function cassetteFor(testFile: string): Cassette {
  const file = cassettePath(testFile);
  let cassette = cassettes.get(file);
  if (!cassette) cassettes.set(file, (cassette = new Cassette(file)));
  return cassette;
}
