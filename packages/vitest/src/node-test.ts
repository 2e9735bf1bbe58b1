/**
 * `@obs/vitest/node-test`: the same `describeEval` on Node.js's own test runner (`node --test`).
 * One `describe` per suite, one `it` per item (inside a nested `items` suite run with
 * `{ concurrency }` when `concurrency` > 1, so the last test waits for every item), and a last
 * `it('scores')` that ends the run and checks the thresholds. Needs Node.js 22.6+ (`t.filePath`
 * names the test file the cassette goes beside).
 *
 * @packageDocumentation
 */
import { after, describe, it } from 'node:test';
import { ensureDispatcherWrapped } from './cache/dispatcher.js';
import { evalCacheMode } from './cache/mode.js';
import { EvalSuite } from './suite.js';
import type { EvalItem, EvalOptions } from './types.js';

export { evalCacheMode, type EvalCacheMode } from './cache/mode.js';
export { ThresholdError } from './suite.js';
export type { DatasetRef, EvalData, EvalItem, EvalOptions, EvalTask, ThresholdRange, Thresholds } from './types.js';

/** The test that ends a suite's run and checks its thresholds. */
export const SCORES_TEST = 'scores';

/**
 * Declares an eval suite on `node:test`: one test per item of `data`, then `scores`.
 *
 * @example
 * ```ts
 * import { describeEval } from '@obs/vitest/node-test';
 *
 * describeEval('capitals', {
 *   data: [{ input: 'France', expectedOutput: 'Paris' }],
 *   task: async ({ input }) => (input === 'France' ? 'Paris' : '?'),
 *   evaluators: [({ output, expectedOutput }) => ({ name: 'exact_match', value: output === expectedOutput })],
 *   thresholds: { exact_match: 0.9 },
 * });
 * ```
 */
export function describeEval<Item extends EvalItem = EvalItem>(name: string, options: EvalOptions<Item>): void {
  const suite = new EvalSuite(name, options);
  describe(name, async () => {
    const plan = await suite.plan();
    const items = () => {
      plan.names.forEach((itemName, index) => {
        it(itemName, { timeout: plan.testTimeout }, async (t) => {
          await suite.runItem(index, testFile(t));
        });
      });
    };
    if (plan.concurrency > 1) describe('items', { concurrency: plan.concurrency }, items);
    else items();
    it(SCORES_TEST, { timeout: plan.testTimeout }, async (t) => {
      t.diagnostic(await suite.finish(testFile(t)));
    });
    after(() => suite.close());
  });
}

function testFile(t: { filePath?: string }): string {
  const file = t.filePath ?? process.argv[1];
  if (!file) throw new Error('describeEval: node:test did not say which file this test is in (Node.js 22.6+ does)');
  return file;
}

try {
  if (evalCacheMode() !== 'off') ensureDispatcherWrapped();
} catch {
  // Said by describeEval.
}
