/**
 * A run's scores in numbers: the mean of each score name, checked against the suite's thresholds,
 * and the one line a failed threshold reads as.
 */
import type { Evaluation, ExperimentItemResult } from '@obs/core';
import type { ThresholdRange, Thresholds } from './types.js';

/** Mean and count of each score name: item evaluations averaged; a run evaluation counts as its own mean. */
export type Means = Record<string, { mean: number; count: number }>;

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

/** The mean of every numeric or boolean score (categorical ones have none). */
export function scoreMeans(itemResults: readonly ExperimentItemResult[], runEvaluations: readonly Evaluation[]): Means {
  const sums = new Map<string, { sum: number; count: number }>();
  const add = (e: Evaluation) => {
    const n = numeric(e.value);
    if (n === undefined) return;
    const s = sums.get(e.name) ?? { sum: 0, count: 0 };
    s.sum += n;
    s.count++;
    sums.set(e.name, s);
  };
  for (const r of itemResults) for (const e of r.evaluations) add(e);
  for (const e of runEvaluations) add(e);
  const out: Means = {};
  for (const [name, { sum, count }] of [...sums].sort(([a], [b]) => (a < b ? -1 : 1))) out[name] = { mean: sum / count, count };
  return out;
}

/** The thresholds as ranges; a bad one throws (at collection, so it never silently passes). */
export function thresholdRanges(suite: string, thresholds: Thresholds | undefined): Map<string, ThresholdRange> {
  const out = new Map<string, ThresholdRange>();
  for (const [name, t] of Object.entries(thresholds ?? {})) {
    const range = typeof t === 'number' ? { min: t } : t;
    const ok = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v));
    if (
      typeof range !== 'object' ||
      range === null ||
      !ok(range.min) ||
      !ok(range.max) ||
      (range.min === undefined && range.max === undefined)
    ) {
      throw new TypeError(
        `describeEval "${suite}": thresholds.${name} must be a number (the minimum mean) or { min?, max? } with finite numbers`,
      );
    }
    out.set(name, range);
  }
  return out;
}

/** A mean to 3 decimals, as the failure line and the summary print it. */
export function round(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/**
 * What fails: one clause per score whose mean is outside its range, or that no evaluator produced
 * (`previous`: last run's means, named when known). Empty when every threshold holds.
 */
export function thresholdFailures(
  ranges: Map<string, ThresholdRange>,
  means: Means,
  previous: Record<string, number> | undefined,
): string[] {
  const failures: string[] = [];
  for (const [name, { min, max }] of ranges) {
    const before = previous?.[name] !== undefined ? ` (previous run: ${round(previous[name])})` : '';
    const m = means[name];
    if (!m) {
      failures.push(`${name} has no numeric score in this run (threshold ${describeRange({ min, max })})${before}`);
      continue;
    }
    if (min !== undefined && m.mean < min) failures.push(`${name} mean ${round(m.mean)} is below the threshold ${round(min)}${before}`);
    else if (max !== undefined && m.mean > max) failures.push(`${name} mean ${round(m.mean)} is above the maximum ${round(max)}${before}`);
  }
  return failures;
}

function describeRange({ min, max }: ThresholdRange): string {
  if (min !== undefined && max !== undefined) return `${round(min)} to ${round(max)}`;
  return min !== undefined ? `min ${round(min)}` : `max ${round(max!)}`;
}
