/**
 * A suite without obs configured, driven the way the runner doors drive it (plan, each item,
 * finish): the task and core's evaluators run, the means and thresholds hold, the baseline is
 * written, nothing is sent, and the summary says obs is not configured; a task that throws fails
 * its item with its own error; an unknown OBS_EVAL_CACHE fails the suite when it is declared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { previousRun } from '../src/history.js';
import { EvalSuite, ThresholdError } from '../src/suite.js';

const dir = mkdtempSync(join(tmpdir(), 'obs-eval-suite-'));
const testFile = join(dir, 'local.eval.test.ts');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (min: number) => ({
  data: [
    { input: 2, expectedOutput: 4 },
    { input: 3, expectedOutput: 6 },
    { input: 5, expectedOutput: 11 },
  ],
  task: ({ input }: { input: number }) => input * 2,
  evaluators: [
    ({ output, expectedOutput }: { output: unknown; expectedOutput: unknown }) => ({ name: 'exact', value: output === expectedOutput }),
  ],
  thresholds: { exact: min },
});

describe('a suite without obs configured', () => {
  it('runs items and evaluators, checks thresholds, keeps the baseline, sends nothing', async () => {
    for (const k of ['OBS_BASE_URL', 'OBS_PUBLIC_KEY', 'OBS_SECRET_KEY']) expect(process.env[k]).toBeUndefined();
    const suite = new EvalSuite('doubling', options(0.5));
    const plan = await suite.plan();
    expect(plan.names).toEqual(['2', '3', '5']);
    await Promise.all(plan.names.map((_, i) => suite.runItem(i, testFile)));
    const summary = await suite.finish(testFile);
    expect(summary).toBe(
      'describeEval "doubling": 3 items; exact 0.667; obs is not configured (missing publicKey (OBS_PUBLIC_KEY), secretKey (OBS_SECRET_KEY), baseUrl (OBS_BASE_URL)): nothing was sent',
    );
    expect(previousRun(testFile, 'doubling')).toEqual({ items: 3, means: { exact: 0.666667 } });

    const strict = new EvalSuite('doubling', options(0.9));
    await strict.plan();
    for (const i of [0, 1, 2]) await strict.runItem(i, testFile);
    const error = await strict.finish(testFile).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ThresholdError);
    expect((error as Error).message).toBe('describeEval "doubling": exact mean 0.667 is below the threshold 0.9 (previous run: 0.667)');
    expect((error as Error).stack).toBe(`ThresholdError: ${(error as Error).message}`);
  });

  it('a task that throws fails its item with that error; an unknown OBS_EVAL_CACHE fails the declaration', async () => {
    const suite = new EvalSuite('throws', {
      data: [{ input: 1 }],
      task: () => {
        throw new RangeError('model said no');
      },
    });
    await suite.plan();
    await expect(suite.runItem(0, testFile)).rejects.toThrow(new RangeError('model said no'));
    process.env['OBS_EVAL_CACHE'] = 'sometimes';
    try {
      expect(() => new EvalSuite('x', { data: [], task: () => 1 })).toThrow(
        'OBS_EVAL_CACHE=sometimes is not one of off, record, replay, auto',
      );
    } finally {
      delete process.env['OBS_EVAL_CACHE'];
    }
  });
});
