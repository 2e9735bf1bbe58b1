/** Argument checks of the experiment runner: a bad call rejects at once, before any item runs. */

/** Items run at once unless `maxConcurrency` says otherwise (as upstream). */
export const DEFAULT_MAX_CONCURRENCY = 50;

function isFunctionList(v: unknown): boolean {
  return v === undefined || (Array.isArray(v) && v.every((f) => typeof f === 'function'));
}

/** Why the arguments cannot run, or `undefined` when they can. */
export function experimentParamsProblem(params: unknown, needsData: boolean): string | undefined {
  if (typeof params !== 'object' || params === null) return 'the experiment needs an options object';
  const p = params as Record<string, unknown>;
  if (typeof p.name !== 'string' || p.name.trim() === '') return '`name` must be a non-empty string';
  if (p.runName !== undefined && (typeof p.runName !== 'string' || p.runName.trim() === '')) {
    return '`runName` must be a non-empty string when given';
  }
  if (typeof p.task !== 'function') return '`task` must be a function';
  if (needsData && !Array.isArray(p.data)) return '`data` must be an array of items';
  if (!isFunctionList(p.evaluators)) return '`evaluators` must be an array of functions';
  if (!isFunctionList(p.runEvaluators)) return '`runEvaluators` must be an array of functions';
  const max = p.maxConcurrency;
  if (max !== undefined && !(typeof max === 'number' && Number.isInteger(max) && max >= 1)) {
    return `\`maxConcurrency\` must be an integer >= 1, got ${String(max)}`;
  }
  if (p.onProgress !== undefined && typeof p.onProgress !== 'function') return '`onProgress` must be a function';
  return undefined;
}
