/**
 * The numbers of a run: means per score name (booleans as 1/0, run evaluations as their own
 * mean), the one-line threshold failures with the previous run's mean, thresholds checked when
 * the suite is declared, the history file rewritten only when a mean changed, and item test names.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { itemNames } from '../src/data.js';
import { historyPath, previousRun, recordRun } from '../src/history.js';
import { scoreMeans, thresholdFailures, thresholdRanges } from '../src/scores.js';
import { EvalSuite } from '../src/suite.js';

const dir = mkdtempSync(join(tmpdir(), 'obs-eval-scores-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const result = (evaluations: Array<{ name: string; value: number | string | boolean }>) => ({
  item: {},
  output: 'x',
  evaluations,
  traceId: 't',
});

describe('means and thresholds', () => {
  const items = [
    result([
      { name: 'exact', value: true },
      { name: 'len', value: 3 },
      { name: 'label', value: 'good' },
    ]),
    result([
      { name: 'exact', value: false },
      { name: 'len', value: 5 },
    ]),
    result([{ name: 'exact', value: 1 }]),
  ];
  const means = scoreMeans(items, [{ name: 'accuracy', value: 0.5 }]);

  it('averages numeric and boolean scores per name; a run evaluation is its own mean; categorical ones have none', () => {
    expect(means).toEqual({ accuracy: { mean: 0.5, count: 1 }, exact: { mean: 2 / 3, count: 3 }, len: { mean: 4, count: 2 } });
  });

  it('one clause per score outside its range, naming mean, threshold and the previous mean', () => {
    const ranges = thresholdRanges('s', { exact: 0.8, len: { max: 3 }, accuracy: { min: 0.4, max: 0.6 }, missing: 1 });
    expect(thresholdFailures(ranges, means, { exact: 0.9 })).toEqual([
      'exact mean 0.667 is below the threshold 0.8 (previous run: 0.9)',
      'len mean 4 is above the maximum 3',
      'missing has no numeric score in this run (threshold min 1)',
    ]);
    expect(thresholdFailures(thresholdRanges('s', { exact: 0.6 }), means, undefined)).toEqual([]);
  });

  it('a malformed threshold, concurrency or task fails when the suite is declared', () => {
    expect(() => thresholdRanges('s', { exact: 'high' as never })).toThrow('describeEval "s": thresholds.exact must be a number');
    expect(() => thresholdRanges('s', { exact: {} })).toThrow('thresholds.exact');
    expect(() => new EvalSuite('s', { data: [], task: () => 1, concurrency: 0 })).toThrow(
      'describeEval "s": concurrency must be an integer >= 1, got 0',
    );
    expect(() => new EvalSuite('s', { data: [], task: 'no' as never })).toThrow('task must be a function');
  });
});

describe('the previous run', () => {
  it('is read back per suite; the file is rewritten only when a mean or the item count changed', () => {
    const testFile = join(dir, 'a.eval.test.ts');
    expect(previousRun(testFile, 'capitals')).toBeUndefined();
    recordRun(testFile, 'capitals', 3, means({ exact: 2 / 3 }));
    recordRun(testFile, 'other', 1, means({ exact: 1 }));
    expect(previousRun(testFile, 'capitals')).toEqual({ items: 3, means: { exact: 0.666667 } });
    const written = statSync(historyPath(testFile)).mtimeMs;
    const text = readFileSync(historyPath(testFile), 'utf8');
    recordRun(testFile, 'capitals', 3, means({ exact: 2 / 3 }));
    expect(statSync(historyPath(testFile)).mtimeMs).toBe(written);
    expect(readFileSync(historyPath(testFile), 'utf8')).toBe(text);
    recordRun(testFile, 'capitals', 3, means({ exact: 1 }));
    expect(previousRun(testFile, 'capitals')).toEqual({ items: 3, means: { exact: 1 } });
    expect(previousRun(testFile, 'other')).toEqual({ items: 1, means: { exact: 1 } });
  });
});

describe('item test names', () => {
  it('an id unless it is a UUID, else the input on one short line; repeats numbered', () => {
    expect(
      itemNames([
        { id: 'capital-france', input: { country: 'France' } },
        { id: '0b9d5f9e-3c1a-4f5e-9a1b-2c3d4e5f6a7b', input: { country: 'Peru' } },
        { input: 'What is\n  the capital?' },
        { input: 'What is\n  the capital?' },
        { input: 'x'.repeat(200) },
        {},
      ]),
    ).toEqual(['capital-france', '{"country":"Peru"}', 'What is the capital?', 'What is the capital? (2)', `${'x'.repeat(79)}…`, 'item 6']);
  });
});

function means(values: Record<string, number>) {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { mean: v, count: 1 }]));
}
