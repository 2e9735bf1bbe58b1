/**
 * Vercel AI SDK calls inside an Express request (the `ai` package's own mock model, no network):
 * its spans, with telemetry on, nest under the request's root observation, carry the request's
 * user and session, and read as obs generations (model, input messages, output, token usage),
 * for both of its OpenTelemetry integrations (GenAI semantic conventions and the legacy `ai.*`).
 */
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { DecodedSpan } from '@obs/local-server';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { obsErrorHandler, obsMiddleware } from '../src/index.js';
import { traceOf, initTestObs, setupObsServer } from './harness.js';

const h = setupObsServer({ init: initTestObs });

function mockModel() {
  return new MockLanguageModelV4({
    modelId: 'mock-gpt',
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'Hello there' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 4, text: 4, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

function app(integration: OpenTelemetry | LegacyOpenTelemetry) {
  const a = express();
  a.use(obsMiddleware({ identify: (req) => ({ userId: String(req.headers['x-user']), sessionId: 'chat-1' }) }));
  a.use(express.json());
  a.post('/chat/:id', async (req, res) => {
    const result = await generateText({
      model: mockModel(),
      prompt: String(req.body.question),
      temperature: 0.3,
      experimental_telemetry: { isEnabled: true, functionId: 'answer', integrations: [integration] },
    });
    res.json({ answer: result.text });
  });
  a.use(obsErrorHandler());
  return a;
}

const json = (s: DecodedSpan | undefined, key: string) => JSON.parse(String(s?.attributes[`obs.observation.${key}`]));

describe('Vercel AI SDK inside an @obs/express request', () => {
  for (const [name, integration] of [
    ['GenAI semantic conventions (@ai-sdk/otel OpenTelemetry)', new OpenTelemetry()],
    ['legacy ai.* attributes (@ai-sdk/otel LegacyOpenTelemetry)', new LegacyOpenTelemetry()],
  ] as const) {
    it(`${name}: nested under the request, with its user and session, and a generation`, async () => {
      const res = await request(app(integration)).post('/chat/7').set('x-user', 'user-7').send({ question: 'Say hi' });
      expect(res.body).toEqual({ answer: 'Hello there' });
      const { root, spans } = await traceOf(h, res, 2);
      const ai = spans.filter((s) => s !== root);
      expect(ai.length).toBeGreaterThanOrEqual(2);
      // Every AI SDK span is in the request's tree: its parent chain reaches the root.
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      for (const s of ai) {
        let p = s;
        while (p.parentSpanId && p !== root) p = byId.get(p.parentSpanId)!;
        expect(p, s.name).toBe(root);
        expect(s.attributes['user.id']).toBe('user-7');
        expect(s.attributes['session.id']).toBe('chat-1');
      }
      const gens = ai.filter((s) => s.attributes['obs.observation.type'] === 'generation');
      expect(gens).toHaveLength(1);
      const gen = gens[0]!;
      expect(gen.attributes['obs.observation.model.name']).toBe('mock-gpt');
      expect(json(gen, 'input')).toEqual([{ role: 'user', content: 'Say hi' }]);
      expect(json(gen, 'output')).toMatchObject({ role: 'assistant', content: 'Hello there' });
      expect(json(gen, 'usage_details')).toEqual({ input: 10, output: 4, total: 14 });
      expect(json(gen, 'model.parameters')).toMatchObject({ temperature: 0.3 });
    });
  }
});
