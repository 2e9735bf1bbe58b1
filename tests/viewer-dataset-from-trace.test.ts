/**
 * "Add to dataset" on a trace in the local viewer, in a real headless Chromium: the form shows the
 * trace's input and its output as the expected output, the output is corrected in the page and
 * saved to a dataset that did not exist, and the item (read back through the public API, the SDK's
 * `dataset.get`) carries the root input, the corrected output and `sourceTraceId`; the next
 * dataset run includes it. The page trips no content security policy rule.
 */
import { initObs, startActiveObservation, startObservation } from '@obs/core';
import { setupObsServer } from '@obs/local-server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, cspViolationsOf, openViewerBrowser } from './support/chromium.js';

const local = setupObsServer({ reset: false, init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!CHROMIUM) return;
  ({ browser, page } = await openViewerBrowser({ width: 1400, height: 900 }));
});

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!CHROMIUM)('Add to dataset on a trace', () => {
  it('saves the root input with the corrected expected output, linked to the trace; the next dataset run includes it', async () => {
    // A production answer that was wrong.
    const traceId = await startActiveObservation('POST /support', async (root) => {
      root.update({ input: { question: 'How long do refunds take?' } });
      startObservation('answer', { input: 'prompt', output: 'Two weeks.' }, { asType: 'generation' }).end();
      root.update({ output: { answer: 'Two weeks.' } });
      return root.traceId;
    });
    await local.handle.flush();

    await page.goto(`${local.server.url}/#/trace/${traceId}`);
    await page.click('#add-to-dataset');
    await page.waitForSelector('#dataset-item-form');
    expect(await page.textContent('#dataset-item-form')).toContain('How long do refunds take?');
    expect(JSON.parse(await page.inputValue('#expected-output'))).toEqual({ answer: 'Two weeks.' });
    await page.fill('#dataset-name', 'support-regressions');
    await page.fill('#expected-output', JSON.stringify({ answer: 'Refunds take 5 business days.' }));
    await page.click('#save-dataset-item');
    const itemId = (await page.locator('#dataset-item-id').textContent({ timeout: 5000 }))!;
    expect(itemId).toMatch(/^[0-9a-f-]{36}$/);

    const client = local.handle.client;
    const dataset = await client.dataset.get('support-regressions');
    expect(dataset.items).toHaveLength(1);
    expect(dataset.items[0]).toMatchObject({
      id: itemId,
      input: { question: 'How long do refunds take?' },
      expectedOutput: { answer: 'Refunds take 5 business days.' },
      sourceTraceId: traceId,
    });

    const result = await dataset.runExperiment({ name: 'regressions', task: () => ({ answer: 'Refunds take 5 business days.' }) });
    const roots = local.server.spansByName('experiment-item-run').filter((s) => s.attributes['obs.experiment.id'] === result.experimentId);
    expect(roots.map((s) => s.attributes['obs.experiment.item.id'])).toEqual([itemId]);

    // The link in the confirmation opens the dataset's page with the item.
    await page.click('#dataset-item-status a');
    await page.waitForFunction(() => location.hash.startsWith('#/dataset/support-regressions'));
    await page.waitForFunction(() => document.body.textContent?.includes('Refunds take 5 business days.'));
    expect(await cspViolationsOf(page)).toEqual([]);
  });
});
