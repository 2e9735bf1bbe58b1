/**
 * A second `initObs` returns the first handle unchanged (dev reloads, several adapters, a wrapper
 * that started obs at its first call): when it asks for other options, one line names each of
 * them with what is in force instead, so a changed base URL or key is never ignored in silence.
 * Secrets are never written: a different secret key or header set is named, not shown.
 */
import type { ObsInitOptions } from './init-options.js';

/** Options applied by every call (`debug`) or read per call (`env`, a Worker's bindings): never "ignored". */
const EVERY_CALL = new Set(['debug', 'env']);
/** Options whose values are never written. */
const SECRET = new Set(['secretKey', 'additionalHeaders']);

/**
 * What `next` asks for that `first` (the options in force) does not give, as one phrase
 * (`baseUrl "http://b" (in force: "http://a"), flushAt 10 (in force: the default)`), or undefined
 * when it asks for nothing new. `auto`: the handle was started by an observation, not a call.
 */
export function ignoredOptions(first: ObsInitOptions, next: ObsInitOptions, auto = false): string | undefined {
  const differing: string[] = [];
  let keys: string[];
  try {
    keys = Object.keys(next ?? {});
  } catch {
    return undefined;
  }
  for (const key of keys) {
    if (EVERY_CALL.has(key)) continue;
    const asked = (next as Record<string, unknown>)[key];
    const held = (first as Record<string, unknown>)[key];
    if (asked === undefined || same(asked, held)) continue;
    if (SECRET.has(key)) {
      differing.push(`${key} (another one; not shown)`);
      continue;
    }
    const inForce = held === undefined ? (auto ? 'the environment or the default' : 'the default') : show(held);
    differing.push(`${key} ${show(asked)} (in force: ${inForce})`);
  }
  if (differing.length === 0) return undefined;
  const how = auto
    ? 'obs started itself at the first observation, before this call: call initObs() before any observation to choose its options'
    : 'shut the handle down first to start again with them';
  return `${differing.join(', ')}; ${how}`;
}

function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

function show(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'function':
      return '(a function)';
    default:
      return Array.isArray(value) ? '(a list)' : '(an object)';
  }
}
