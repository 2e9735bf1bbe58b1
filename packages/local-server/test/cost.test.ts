/**
 * Costs (issue 45): generations without `cost_details` are priced from the bundled model price
 * table by usage bucket, models found by pattern whatever the provider calls them (Bedrock ids,
 * Vertex `@versions`, ARNs, `provider/` prefixes); the SDK's `cost_details` win; `--prices` adds
 * and overrides models. The viewer's reads carry the cost: the list, the trace (per observation,
 * with where it came from), the session, the runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startObsServer } from '../src/index.js';
import { bareModelName, parsePriceTable, Pricing } from '../src/model/cost.js';
import { MODEL_PRICES } from '../src/model/model-prices.js';
import { CLI_BUILT, runCliToEnd, startCli } from './cli-process.js';
import { basic } from './helpers.js';

const usage = (model: string, buckets: Record<string, number>, cost?: Record<string, number>) => ({
  'obs.observation.model.name': model,
  'obs.observation.usage_details': JSON.stringify(buckets),
  ...(cost && { 'obs.observation.cost_details': JSON.stringify(cost) }),
});

describe('the price table', () => {
  const pricing = new Pricing();

  it("finds each provider's current models by pattern, whatever the SDK or platform calls them", () => {
    const found = (name: string) => pricing.find(name)?.model;
    expect(found('gpt-4o-mini-2024-07-18')).toBe('gpt-4o-mini');
    expect(found('openai/gpt-4.1')).toBe('gpt-4.1');
    expect(found('gpt-5-mini-2025-08-07')).toBe('gpt-5-mini');
    expect(found('gpt-6-sol')).toBe('gpt-6-sol');
    expect(found('o4-mini')).toBe('o4-mini');
    expect(found('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4');
    expect(found('claude-opus-4-1-20250805')).toBe('claude-opus-4-1');
    expect(found('claude-3-5-haiku-latest')).toBe('claude-3-5-haiku');
    expect(found('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe('claude-sonnet-4'); // Bedrock inference profile
    expect(found('anthropic.claude-haiku-4-5-20251001-v1:0')).toBe('claude-haiku-4-5');
    expect(found('arn:aws:bedrock:us-east-1:123456789012:inference-profile/global.anthropic.claude-opus-4-5-20251101-v1:0')).toBe(
      'claude-opus-4-5',
    );
    expect(found('claude-sonnet-4-5@20250929')).toBe('claude-sonnet-4'); // Vertex AI
    expect(found('amazon.nova-pro-v1:0')).toBe('nova-pro');
    expect(found('us.amazon.nova-2-lite-v1:0')).toBe('nova-2-lite');
    expect(found('models/gemini-2.5-flash')).toBe('gemini-2.5-flash');
    expect(found('gemini-2.5-flash-lite')).toBe('gemini-2.5-flash-lite');
    expect(found('gemini-2.0-flash-001')).toBe('gemini-2.0-flash');
    expect(found('gemini-3.1-pro-preview')).toBe('gemini-3.1-pro');
    expect(found('mistral-large-latest')).toBe('mistral-large-3');
    expect(found('mistral/mistral-small-2506')).toBe('mistral-small-3.2');
    expect(found('codestral-2508')).toBe('codestral');
    expect(found('my-own-finetune')).toBeUndefined();
    expect(bareModelName('eu.anthropic.claude-3-7-sonnet-20250219-v1:0')).toBe('claude-3-7-sonnet-20250219');
    // Every bundled row is found by its own name (no row hidden behind a broader one).
    for (const row of MODEL_PRICES) expect(found(row.model), row.model).toBe(row.model);
  });

  it('prices each usage bucket at its own price, an unpriced input_* or output_* bucket as input or output', () => {
    const cost = pricing.costOf(
      usage('claude-sonnet-4-5', {
        input: 1_000_000,
        input_cache_read: 1_000_000,
        input_cache_write: 1_000_000,
        output: 1_000_000,
        total: 4_000_000,
      }),
    );
    expect(cost).toEqual({
      total: 3 + 0.3 + 3.75 + 15,
      details: { input: 3, input_cache_read: 0.3, input_cache_write: 3.75, output: 15 },
      source: 'price table',
      model: 'claude-sonnet-4',
    });
    const reasoning = pricing.costOf(usage('o3', { input: 500_000, output: 100_000, output_reasoning: 400_000, input_audio: 10 }))!;
    expect(reasoning.details).toEqual({ input: 1, output: 0.8, output_reasoning: 3.2, input_audio: 0.00002 });
    expect(pricing.costOf(usage('o3', { total: 10 }))).toBeUndefined(); // nothing to price by bucket
    expect(pricing.costOf({ 'obs.observation.usage_details': '{"input":1}' })).toBeUndefined(); // no model
  });

  it("keeps the SDK's cost_details when it sent them", () => {
    expect(pricing.costOf(usage('gpt-4o', { input: 1000 }, { input: 0.5, output: 0.25 }))).toEqual({
      total: 0.75,
      details: { input: 0.5, output: 0.25 },
      source: 'sdk',
    });
    expect(pricing.costOf(usage('gpt-4o', { input: 1000 }, { total: 0.1 }))).toMatchObject({ total: 0.1, source: 'sdk' });
  });

  it('takes rows that add or override models, tried first; checks a price file and says what is wrong', () => {
    const mine = new Pricing(
      parsePriceTable({
        models: [
          { model: 'in-house-llm', match: '(?i)^in-house-llm(-v\\d+)?$', prices: { input: 1, output: 2 } },
          { model: 'gpt-4o-mini', prices: { input: 10, output: 10 } },
        ],
      }),
    );
    expect(mine.costOf(usage('IN-HOUSE-LLM-v2', { input: 1_000_000, output: 1_000_000 }))).toMatchObject({
      total: 3,
      model: 'in-house-llm',
    });
    expect(mine.costOf(usage('gpt-4o-mini', { input: 1_000_000 }))?.total).toBe(10);
    expect(mine.costOf(usage('gpt-4o-mini-2024-07-18', { input: 1_000_000 }))?.total).toBe(0.15); // the override is the exact name
    expect(() => parsePriceTable({ nope: 1 })).toThrow('expected a JSON array of { model, match?, prices }');
    expect(() => parsePriceTable([{ model: 'x', prices: { input: -1 } }])).toThrow(
      'entry 0 (x): the price of "input" must be a non-negative number',
    );
    expect(() => parsePriceTable([{ model: 'x', match: '(', prices: { input: 1 } }])).toThrow(
      'entry 0 (x): "match" is not a regular expression',
    );
    expect(() => parsePriceTable([{ prices: { input: 1 } }])).toThrow('entry 0: needs a "model" name');
  });
});

const root = mkdtempSync(path.join(tmpdir(), 'obs-cost-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Posts one generation span (and its root) of a trace, with these attributes. */
async function generation(url: string, auth: string, traceId: string, attributes: Record<string, string>, session?: string) {
  const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const res = await fetch(`${url}/api/public/otel/v1/traces`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: traceId.slice(0, 16),
                  name: 'chat',
                  startTimeUnixNano: '1700000000000000000',
                  endTimeUnixNano: '1700000001000000000',
                  attributes: session ? [attr('session.id', session)] : [],
                },
                {
                  traceId,
                  spanId: traceId.slice(16),
                  parentSpanId: traceId.slice(0, 16),
                  name: 'llm',
                  startTimeUnixNano: '1700000000100000000',
                  endTimeUnixNano: '1700000000900000000',
                  attributes: [attr('obs.observation.type', 'generation'), ...Object.entries(attributes).map(([k, v]) => attr(k, v))],
                },
              ],
            },
          ],
        },
      ],
    }),
  });
  expect(res.status).toBe(200);
}

describe('costs in the viewer reads', () => {
  it('the list, the trace (per observation, with its source), the session', async () => {
    const server = await startObsServer({ quiet: true, data: path.join(root, 'reads') });
    const auth = basic(server.publicKey, server.secretKey);
    try {
      const [a, b] = ['a'.repeat(32), 'b'.repeat(32)];
      await generation(server.url, auth, a, usage('gpt-4o-mini', { input: 2_000_000, output: 1_000_000 }), 'conv');
      await generation(server.url, auth, b, usage('gpt-4o-mini', { input: 10 }, { total: 0.25 }), 'conv');
      const list = (await (await fetch(`${server.url}/viewer-api/traces`)).json()) as { data: Array<{ id: string; totalCost: number }> };
      const costs = Object.fromEntries(list.data.map((t) => [t.id, t.totalCost]));
      expect(costs[a]).toBeCloseTo(0.9, 12);
      expect(costs[b]).toBe(0.25);
      const trace = (await (await fetch(`${server.url}/viewer-api/traces/${a}`)).json()) as {
        observations: Array<{ name: string; cost: { total: number } | null }>;
      };
      expect(trace.observations.map((o) => [o.name, o.cost && { ...o.cost, total: Number(o.cost.total.toFixed(12)) }])).toEqual([
        ['chat', null],
        ['llm', { total: 0.9, details: { input: 0.3, output: 0.6 }, source: 'price table', model: 'gpt-4o-mini' }],
      ]);
      const session = (await (await fetch(`${server.url}/viewer-api/sessions/conv`)).json()) as { traces: Array<{ totalCost: number }> };
      expect(session.traces.map((t) => Number(t.totalCost.toFixed(12)))).toEqual([0.9, 0.25]);
    } finally {
      await server.close();
    }
  });

  it.skipIf(!CLI_BUILT)('--prices <file> adds and overrides models on the CLI; a bad file is named with what is wrong', async () => {
    const file = path.join(root, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify([
        { model: 'gpt-4o-mini', prices: { input: 100, output: 100 } },
        { model: 'house-model', prices: { input: 1 } },
      ]),
    );
    const cli = await startCli(['--memory', '--prices', file]);
    try {
      const auth = basic('pk-obs-local', 'sk-obs-local');
      await generation(cli.url, auth, 'c'.repeat(32), usage('gpt-4o-mini', { input: 1_000_000 }));
      await generation(cli.url, auth, 'd'.repeat(32), usage('house-model', { input: 2_000_000 }));
      const list = (await (await fetch(`${cli.url}/viewer-api/traces`)).json()) as { data: Array<{ id: string; totalCost: number }> };
      expect(Object.fromEntries(list.data.map((t) => [t.id, t.totalCost]))).toEqual({ ['c'.repeat(32)]: 100, ['d'.repeat(32)]: 2 });
    } finally {
      await cli.stop();
    }
    writeFileSync(file, '[{"model": "x", "prices": {}}]');
    const bad = await runCliToEnd(['--memory', '--prices', file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(new RegExp(`^obs-local-server: --prices ${file}: entry 0 \\(x\\): needs "prices"`));
  });
});
