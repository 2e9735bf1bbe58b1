/** `OBS_EVAL_CACHE`: whether the model calls of an eval are recorded, replayed, both, or left alone. */

/**
 * - `off` (default): calls go out as they are; nothing is read or written.
 * - `record`: every call goes out and its answer is written to the cassette (replacing what was there).
 * - `replay`: every call is answered from the cassette; a call not in it fails its item, named.
 * - `auto`: answered from the cassette when it is there, else made and recorded.
 */
export type EvalCacheMode = 'off' | 'record' | 'replay' | 'auto';

const MODES: readonly EvalCacheMode[] = ['off', 'record', 'replay', 'auto'];

/**
 * The mode `OBS_EVAL_CACHE` names. An unknown value throws: a typo in CI must not quietly turn
 * into paid model calls.
 */
export function evalCacheMode(env: Record<string, string | undefined> = process.env): EvalCacheMode {
  const raw = env['OBS_EVAL_CACHE']?.trim().toLowerCase();
  if (raw === undefined || raw === '') return 'off';
  if ((MODES as readonly string[]).includes(raw)) return raw as EvalCacheMode;
  throw new TypeError(`OBS_EVAL_CACHE=${env['OBS_EVAL_CACHE']} is not one of ${MODES.join(', ')}`);
}
