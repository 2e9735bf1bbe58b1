/**
 * Numeric options validated once: a value that is not a finite number in range (`NaN` from
 * `Number(process.env.UNSET)`, a string, a negative) logs one warning and uses the default;
 * a value past Node's timer limit is clamped to it.
 */
import { logger } from '../util/logger.js';

/** Longest delay `setTimeout` honours (about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Range and shape of a numeric option. */
export interface NumberRule {
  /** Largest value; larger ones are clamped to it (no warning). */
  max?: number;
  /** Rounded down to an integer. */
  integer?: boolean;
  /** Whether 0 is valid; default false. */
  allowZero?: boolean;
}

/**
 * `value` when it is a valid number for `rule`, else `fallback` with one warning naming the
 * option. `undefined` means "not set": the fallback, silently.
 */
export function numberOption(name: string, value: unknown, fallback: number, rule: NumberRule = {}): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || (rule.allowZero ? value < 0 : value <= 0)) {
    logger.warn(
      `option ${name} must be a ${rule.allowZero ? 'non-negative' : 'positive'} number, got ${describe(value)}; using ${fallback}`,
    );
    return fallback;
  }
  let n = value;
  if (rule.integer) n = Math.max(rule.allowZero ? 0 : 1, Math.floor(n));
  if (rule.max !== undefined && n > rule.max) n = rule.max;
  return n;
}

/** Seconds as a timer delay in ms, clamped to Node's timer limit. */
export function secondsToTimerMs(seconds: number): number {
  return Math.min(MAX_TIMER_MS, Math.round(seconds * 1000));
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'number') return String(value);
  return typeof value;
}
