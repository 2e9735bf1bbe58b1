/**
 * An agent trace in the local server's viewer, in a real headless Chromium: a run of the real
 * OpenAI Agents SDK (`@obs/openai-agents`, against the stand-in OpenAI API) reads as a tree of
 * the workflow, its agents, each model call with its model, the handoff naming both agents and
 * the tool call, each with its type badge. Writes test-output/viewer-agent.png.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { initObs } from '@obs/core';
import { setupObsServer } from '@obs/local-server/testing';
import { observeOpenAIAgents } from '@obs/openai-agents';
import { run, setDefaultOpenAIClient, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../packages/openai-agents/test/stand-in-openai.js';
import { triageAgents } from '../packages/openai-agents/test/triage-agents.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));
const OUT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-output');
const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });
let browser: Browser | undefined;
let standIn: StandIn;

beforeAll(async () => {
  standIn = await startStandIn();
  setDefaultOpenAIClient(new OpenAI({ apiKey: 'sk-test', baseURL: standIn.baseURL, maxRetries: 0 }));
  setTracingDisabled(false);
  observeOpenAIAgents();
  if (CHROMIUM)
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
afterAll(async () => {
  await browser?.close();
  await standIn?.close();
});

it.skipIf(!CHROMIUM)('an OpenAI Agents run reads as agents, model calls with their model, the handoff and the tool', async () => {
  const { triage } = triageAgents();
  standIn.script({ call: 'transfer_to_Writer', args: {} }, { call: 'weather', args: { city: 'Paris' } }, { text: 'Sunny in Paris.' });
  await run(triage, 'Weather in Paris?');
  await new Promise((r) => setImmediate(r));
  await local.handle.flush();
  const root = local.server.spans().find((s) => s.name === 'Agent workflow');
  expect(root).toBeDefined();

  const page = await browser!.newPage({ viewport: { width: 1400, height: 700 } });
  await page.goto(`${local.server.url}/#/trace/${root!.traceId}`);
  await page.waitForSelector('#tree .tree-row');
  const rows = await page.$$eval('#tree .tree-row', (els) =>
    els.map((e) => {
      const name = e.querySelector('.tree-name')!;
      const model = name.getAttribute('data-model');
      return `${e.getAttribute('data-depth')} ${name.textContent}${model ? ` [${model}]` : ''}`;
    }),
  );
  expect(rows).toEqual([
    '0 agentAgent workflow',
    '1 agentTriage',
    '2 generationresponse [gpt-stand-in-2026]',
    '2 spanhandoff Triage -> Writer',
    '1 agentWriter',
    '2 generationresponse [gpt-stand-in-2026]',
    '2 toolweather',
    '2 generationresponse [gpt-stand-in-2026]',
  ]);
  // The model shows after the generation's name (CSS generated content).
  const shown = await page.$eval('#tree .tree-name[data-model]', (e) => getComputedStyle(e, '::after').content);
  expect(shown).toBe('"gpt-stand-in-2026"');
  await page.click('#tree .tree-row:has-text("weather")');
  await page.waitForFunction(() => document.querySelector('#detail')?.textContent?.includes('sunny in Paris'));
  mkdirSync(OUT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(OUT_DIR, 'viewer-agent.png') });
  await page.close();
});
