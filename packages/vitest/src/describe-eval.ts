/**
 * `describeEval` on vitest: one `describe` per suite, one test per item (`test.concurrent` when
 * `concurrency` > 1), and a last test, `scores`, that ends the run and checks the thresholds: a
 * breach fails it with one line, and vitest exits non-zero.
 */
import { afterAll, describe, test } from 'vitest';
import { EvalSuite } from './suite.js';
import type { EvalItem, EvalOptions } from './types.js';

/** The test that ends a suite's run and checks its thresholds. */
export const SCORES_TEST = 'scores';

/**
 * Declares an eval suite: one test per item of `data`, each running `task` and `evaluators` as an
 * item of one obs experiment run, then `scores` (run evaluators, means, thresholds).
 *
 * @example
 * ```ts
 * describeEval('capitals', {
 *   data: [{ input: 'France', expectedOutput: 'Paris' }],
 *   task: async ({ input }) => answer(input),
 *   evaluators: [({ output, expectedOutput }) => ({ name: 'exact_match', value: output === expectedOutput })],
 *   thresholds: { exact_match: 0.9 },
 * });
 * ```
 */
export function describeEval<Item extends EvalItem = EvalItem>(name: string, options: EvalOptions<Item>): void {
  const suite = new EvalSuite(name, options);
  describe(name, async () => {
    const plan = await suite.plan();
    const itemTest = plan.concurrency > 1 ? test.concurrent : test;
    plan.names.forEach((itemName, index) => {
      itemTest(itemName, { timeout: plan.testTimeout }, async (ctx) => {
        await suite.runItem(index, testFile(ctx));
      });
    });
    test(SCORES_TEST, { timeout: plan.testTimeout }, async (ctx) => {
      console.log(await suite.finish(testFile(ctx)));
    });
    afterAll(() => suite.close());
  });
}

function testFile(ctx: { task: { file?: { filepath?: string } } }): string {
  const file = ctx.task.file?.filepath;
  if (!file) throw new Error('describeEval: vitest did not say which file this test is in');
  return file;
}
