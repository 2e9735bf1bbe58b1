/**
 * `@obs/vitest`: evals as vitest suites. `describeEval` runs a task over items with
 * `@obs/core`'s experiment evaluators, one test per item, as one experiment run in obs, and fails
 * the suite when a score's mean crosses its threshold. `OBS_EVAL_CACHE=record|replay|auto` records
 * the model calls the items make (below `fetch`, from the moment this module is imported) and
 * replays them, so CI neither calls nor pays the model.
 *
 * @packageDocumentation
 */
import { ensureDispatcherWrapped } from './cache/dispatcher.js';
import { evalCacheMode } from './cache/mode.js';

export { describeEval, SCORES_TEST } from './describe-eval.js';
export { evalCacheMode, type EvalCacheMode } from './cache/mode.js';
export { ThresholdError } from './suite.js';
export type { DatasetRef, EvalData, EvalItem, EvalOptions, EvalTask, ThresholdRange, Thresholds } from './types.js';

// At import, before the test module's top level makes its model client. A bad OBS_EVAL_CACHE is
// reported by the first describeEval, as a failed suite.
try {
  if (evalCacheMode() !== 'off') ensureDispatcherWrapped();
} catch {
  // Said by describeEval.
}
