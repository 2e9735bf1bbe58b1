/**
 * AI SDK 7 traces with `experimental_telemetry: { isEnabled: true }` alone, as 5 and 6 do (issue
 * 33 item 3): with no integration registered, `initObs` registers `@ai-sdk/otel`'s OpenTelemetry
 * integration as a stand-in, which steps aside when the app registers its own; AI SDK 5 is
 * untouched; without `@ai-sdk/otel` installed, one warning at start names the line to add. The
 * real `ai` 7 and 5 packages; the last cases in fresh app folders (child processes) whose
 * `node_modules` hold exactly the packages the case needs.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { LegacyOpenTelemetry } from '@ai-sdk/otel';
import { initObs } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import * as ai7 from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as ai5 from 'ai5';
import { MockLanguageModelV2 } from 'ai5/test';
import { afterAll, describe, expect, it } from 'vitest';
import { registry, spansBelowRoot, withRegistered } from './harness.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const model7 = () =>
  new MockLanguageModelV4({
    modelId: 'mock-7',
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'seven' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  });

const traced = (fn: () => Promise<unknown>) => spansBelowRoot(local, fn);
const types = (spans: DecodedSpan[]) => spans.map((s) => String(s.attributes['obs.observation.type'])).sort();

describe('AI SDK 7 in an app that registered no telemetry integration', () => {
  it('initObs registered one stand-in integration: isEnabled: true alone traces the call (semconv spans)', async () => {
    expect(registry.AI_SDK_TELEMETRY_INTEGRATIONS).toHaveLength(1);
    const spans = await traced(() => ai7.generateText({ model: model7(), prompt: 'Hi', experimental_telemetry: { isEnabled: true } }));
    expect(types(spans)).toEqual(['agent', 'chain', 'generation']);
    const gen = spans.find((s) => s.attributes['obs.observation.type'] === 'generation')!;
    expect(gen.scope.name).toBe('gen_ai');
    expect(gen.attributes['obs.observation.model.name']).toBe('mock-7');
    expect(JSON.parse(String(gen.attributes['obs.observation.output']))).toEqual({ role: 'assistant', content: 'seven' });
  });

  it('as with any registered integration, AI SDK 7 then traces calls without experimental_telemetry, and not those with isEnabled: false', async () => {
    const quiet = await traced(() => ai7.generateText({ model: model7(), prompt: 'Hi', experimental_telemetry: { isEnabled: false } }));
    expect(quiet).toHaveLength(0);
    const unset = await traced(() => ai7.generateText({ model: model7(), prompt: 'Hi' }));
    expect(types(unset)).toEqual(['agent', 'chain', 'generation']);
  });

  it('an integration the app registers after obs replaces the stand-in: each call is traced once, by the app’s', async () => {
    const spans = await withRegistered(new LegacyOpenTelemetry(), () =>
      traced(() => ai7.generateText({ model: model7(), prompt: 'Hi', experimental_telemetry: { isEnabled: true } })),
    );
    // The legacy integration's ai.* spans only: no semconv step chain, one generation.
    expect(types(spans)).toEqual(['agent', 'generation']);
    expect(spans.every((s) => s.scope.name === 'ai')).toBe(true);
  });

  it('AI SDK 5 in the same process traces as it always did, once', async () => {
    const model = new MockLanguageModelV2({
      modelId: 'mock-5',
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'five' }],
        finishReason: 'stop',
        usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
        warnings: [],
      }),
    });
    const spans = await traced(() => ai5.generateText({ model, prompt: 'Hi', experimental_telemetry: { isEnabled: true } }));
    expect(types(spans)).toEqual(['agent', 'generation']);
    expect(spans.every((s) => s.scope.name === 'ai')).toBe(true);
  });
});

describe('fresh app folders (child processes)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** An app folder whose node_modules/ai is `aiDir` and nothing else; runs `code` there. */
  async function runApp(aiDir: string, code: string): Promise<{ stdout: string; stderr: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'obs-ai-sdk-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(repo, 'node_modules', aiDir), join(dir, 'node_modules', 'ai'), 'dir');
    const core = pathToFileURL(join(repo, 'packages', 'core', 'dist', 'index.js')).href;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    writeFileSync(join(dir, 'main.js'), `import { initObs } from '${core}';\nimport * as ai from 'ai';\n${code}\n`);
    return promisify(execFile)(process.execPath, ['main.js'], {
      cwd: dir,
      env: { ...process.env, ...local.server.env, OBS_FLUSH_INTERVAL: '0.05' },
    });
  }

  const WARNING = /AI SDK 7\.\d+\.\d+ traces only through a telemetry integration, and none is registered/;

  it('AI SDK 7 without @ai-sdk/otel: one warning at start, with the line to add', async () => {
    const { stderr } = await runApp(
      'ai',
      `const obs = initObs({ flushOnExit: false });
       await new Promise((r) => setTimeout(r, 50));
       console.log('registered', (globalThis.AI_SDK_TELEMETRY_INTEGRATIONS ?? []).length);
       await obs.shutdown();`,
    );
    const lines = stderr.split('\n').filter((l) => WARNING.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('npm install @ai-sdk/otel, then once at start-up: registerTelemetry(new OpenTelemetry())');
  });

  it('AI SDK 7 without @ai-sdk/otel, with an integration the app registers right after initObs: no warning', async () => {
    const { stdout, stderr } = await runApp(
      'ai',
      `const obs = initObs({ flushOnExit: false });
       ai.registerTelemetry({ onStart() {} });
       await new Promise((r) => setTimeout(r, 50));
       console.log('registered', globalThis.AI_SDK_TELEMETRY_INTEGRATIONS.length);
       await obs.shutdown();`,
    );
    expect(stdout).toContain('registered 1');
    expect(stderr).not.toMatch(WARNING);
  });

  it('AI SDK 5: nothing registered, no warning', async () => {
    const { stdout, stderr } = await runApp(
      'ai5',
      `const obs = initObs({ flushOnExit: false });
       await new Promise((r) => setTimeout(r, 50));
       console.log('registered', (globalThis.AI_SDK_TELEMETRY_INTEGRATIONS ?? []).length);
       await obs.shutdown();`,
    );
    expect(stdout).toContain('registered 0');
    expect(stderr).not.toMatch(/telemetry integration/);
  });
});
