import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { obsWarnings } from '../../../tests/support/framework-app.js';
import { nextBundleCopies } from '../../../tests/support/next-copies.js';
import {
  askAiRoute,
  EXAMPLE_DIR,
  expectWholeTrace,
  firstSpan,
  nextEnv,
  nextErrorAttributes,
  startNext,
  waitForGenerationTrace,
} from './harness.js';

const local = setupObsServer();
let app: Awaited<ReturnType<typeof startNext>>;

beforeAll(async () => {
  app = await startNext(
    nextEnv({
      ...local.server.env,
      // No timer-driven export: whatever arrives was flushed by the request itself (after()/waitUntil),
      // as on a serverless platform that freezes the function once it has responded.
      OBS_FLUSH_INTERVAL: '3600',
    }),
  );
});

afterAll(async () => {
  await app?.stop();
});

/** Waits for the spans of one trace (at least `count`), flushed by the app on its own. */
async function traceOf(traceId: string, count: number): Promise<DecodedSpan[]> {
  await local.server.waitFor(() => local.server.spansByTrace(traceId).length >= count, { timeoutMs: 10_000 });
  return local.server.spansByTrace(traceId);
}

function byName(spans: DecodedSpan[], name: string): DecodedSpan {
  const span = spans.find((s) => s.name === name);
  if (!span) throw new Error(`no span "${name}" in ${spans.map((s) => s.name).join(', ')}`);
  return span;
}

describe('next build', () => {
  it('builds the example without contacting the obs server', () => {
    const build = inject('nextBuild');
    expect(build.log).toMatch(/\/api\/chat\/\[id\]/);
    expect(build.requestsDuringBuild).toBe(0);
  });

  it('prints no warning from obs (Turbopack, the Edge route included)', () => {
    expect(obsWarnings(inject('nextBuild').log)).toEqual([]);
  });

  it('puts at most one copy of @obs/core and of @opentelemetry/api in each server bundle, the Edge function included', () => {
    const copies = nextBundleCopies(path.join(EXAMPLE_DIR, '.next'));
    expect(copies['/app/api/chat/[id]/route.js']).toEqual({ core: 1, api: 1 });
    expect(copies['edge /api/edge/route']).toEqual({ core: 1, api: 1 });
    for (const [bundle, c] of Object.entries(copies)) {
      expect(c.core, bundle).toBeLessThanOrEqual(1);
      expect(c.api, bundle).toBeLessThanOrEqual(1);
    }
  });
});

describe('route handler wrapped with withObs (Node.js runtime)', () => {
  it('names the root after the route, records input and output, propagates identify, and sets the trace id header', async () => {
    const res = await fetch(`${app.url}/api/chat/42`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': 'user-7' },
      body: JSON.stringify({ message: 'What is the capital of France?', password: 'hunter2' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; answer: string };
    expect(body).toEqual({ id: '42', answer: 'Paris is the capital of France.' });
    const traceId = res.headers.get('x-obs-trace-id');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    const spans = await traceOf(traceId!, 2);
    const root = byName(spans, 'POST /api/chat/[id]');
    expect(root.parentSpanId).toBeUndefined();
    expect(root.attributes).toMatchObject({
      'obs.observation.type': 'span',
      'obs.trace.name': 'POST /api/chat/[id]',
      'http.request.method': 'POST',
      'http.route': '/api/chat/[id]',
      'url.path': '/api/chat/42',
      'http.response.status_code': 200,
      'user.id': 'user-7',
      'session.id': '42',
    });
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({
      message: 'What is the capital of France?',
      password: '[REDACTED]',
    });
    expect(JSON.parse(String(root.attributes['obs.observation.output']))).toEqual(body);
    expect(root.attributes['obs.observation.level']).toBeUndefined();

    const generation = spans.find((s) => s.attributes['obs.observation.type'] === 'generation');
    expect(generation, 'the model call is a generation').toBeDefined();
    expect(generation!.parentSpanId).toBe(root.spanId);
    expect(generation!.attributes).toMatchObject({ 'user.id': 'user-7', 'session.id': '42' });
    expect(generation!.attributes['obs.trace.tags']).toEqual(['example', 'chat']);
    expect(String(generation!.attributes['obs.observation.output'])).toContain('Paris');
    // Node.js runtime: gzip export.
    expect(root.compressed).toBe(true);
    expect(expectWholeTrace(spans)).toEqual([]);
  });

  it("keeps the caller's trace when a traceparent comes in, parented to the caller's span", async () => {
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const res = await fetch(`${app.url}/api/chat/abc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${callerTrace}-${callerSpan}-01` },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-obs-trace-id')).toBe(callerTrace);
    const spans = await traceOf(callerTrace, 2);
    const root = byName(spans, 'POST /api/chat/[id]');
    // Next's own request span sat between the two; it is not exported, so the root is re-pointed.
    expect(root.parentSpanId).toBe(callerSpan);
    expect(expectWholeTrace(spans, callerSpan)).toEqual([]);
  });

  it('streams the body chunk by chunk to the client and records the reassembled text as output', async () => {
    const res = await fetch(`${app.url}/api/stream?topic=Lyon`);
    expect(res.status).toBe(200);
    const traceId = res.headers.get('x-obs-trace-id')!;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(decoder.decode(value, { stream: true }));
    }
    const text = chunks.join('');
    expect(text).toBe('Here are five facts about Lyon: it is old, it is large, it is loved, it is busy, it is green. ');
    // The words are produced 15 ms apart: a buffered body would arrive as one chunk.
    expect(chunks.length).toBeGreaterThan(5);

    const spans = await traceOf(traceId, 2);
    const root = byName(spans, 'GET /api/stream');
    const generation = byName(spans, 'generate');
    expect(root.attributes['obs.observation.output']).toBe(text);
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ topic: 'Lyon' });
    expect(generation.parentSpanId).toBe(root.spanId);
    expect(generation.attributes['obs.observation.output']).toBe(text);
    // The root ends when the stream does, not when the handler returned: the words come 15 ms apart.
    const words = text.trim().split(' ').length;
    expect(root.durationMs).toBeGreaterThan(words * 10);
    expect(expectWholeTrace(spans)).toEqual([]);
  });

  it('marks the root cancelled when the client goes away mid-stream', async () => {
    const controller = new AbortController();
    const res = await fetch(`${app.url}/api/stream?topic=Nantes`, { signal: controller.signal });
    const traceId = res.headers.get('x-obs-trace-id')!;
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);

    const spans = await traceOf(traceId, 2);
    const root = byName(spans, 'GET /api/stream');
    expect(root.attributes['obs.observation.level']).toBe('WARNING');
    expect(root.attributes['obs.observation.metadata.cancelled']).toBe(true);
    // What reached the client before it left (at least the first chunk it read) is the output, and no more.
    const output = String(root.attributes['obs.observation.output'] ?? '');
    expect(output).toMatch(/^Here /);
    expect('Here are five facts about Nantes: it is old, it is large, it is loved, it is busy, it is green. '.startsWith(output)).toBe(
      true,
    );
  });

  it('records a thrown error on the root once (not again through onRequestError), with the form input', async () => {
    const res = await fetch(`${app.url}/api/boom`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'reason=quota&token=abc',
    });
    expect(res.status).toBe(500);
    const root = await firstSpan(local.server, 'POST /api/boom');
    expect(root.attributes).toMatchObject({
      'obs.observation.level': 'ERROR',
      'obs.observation.status_message': 'model provider unavailable: unknown',
      'http.response.status_code': 500,
    });
    expect(root.status.code).toBe(2);
    expect(root.events.some((e) => e.name === 'exception')).toBe(true);
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ reason: 'quota', token: '[REDACTED]' });
    // onRequestError ran too (Next awaits it before answering) and must not have added a second observation.
    await new Promise((r) => setTimeout(r, 300));
    expect(local.server.spansByTrace(root.traceId)).toHaveLength(1);
  });
});

describe('Vercel AI SDK inside a route handler', () => {
  it('nests the AI SDK spans under the request root with its user and session; the model call is a generation', async () => {
    const traceId = await askAiRoute(app.url);
    const spans = await waitForGenerationTrace(local.server, traceId, 'POST /api/ai');
    const root = byName(spans, 'POST /api/ai');
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    for (const s of spans) {
      let p = s;
      while (p.parentSpanId && byId.has(p.parentSpanId)) p = byId.get(p.parentSpanId)!;
      expect(p, s.name).toBe(root);
      expect(s.attributes['user.id']).toBe('user-ai');
      expect(s.attributes['session.id']).toBe('ai-session');
    }
    const gens = spans.filter((s) => s.attributes['obs.observation.type'] === 'generation');
    expect(gens).toHaveLength(1);
    expect(gens[0]!.attributes['obs.observation.model.name']).toBe('mock-gpt');
    expect(JSON.parse(String(gens[0]!.attributes['obs.observation.input']))).toEqual([{ role: 'user', content: 'Capital of Portugal?' }]);
    expect(JSON.parse(String(gens[0]!.attributes['obs.observation.usage_details']))).toEqual({ input: 12, output: 7, total: 19 });
  });
});

describe('edge runtime', () => {
  it('traces an edge route handler and exports its spans uncompressed', async () => {
    const res = await fetch(`${app.url}/api/edge?text=${encodeURIComponent('is it raining?')}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: 'is it raining?', kind: 'question', runtime: 'edge' });
    const traceId = res.headers.get('x-obs-trace-id')!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const spans = await traceOf(traceId, 2);
    const root = byName(spans, 'GET /api/edge');
    const step = byName(spans, 'classify');
    expect(step.parentSpanId).toBe(root.spanId);
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ text: 'is it raining?' });
    expect(JSON.parse(String(root.attributes['obs.observation.output']))).toMatchObject({ kind: 'question' });
    for (const s of spans) expect(s.compressed, `${s.name} sent uncompressed`).toBe(false);
    const exports = local.server.requests.filter((r) => r.path.endsWith('/otel/v1/traces'));
    expect(exports.some((r) => !r.headers['content-encoding'])).toBe(true);
    expect(expectWholeTrace(spans)).toEqual([]);
  });
});

describe('onRequestError', () => {
  it('records an unwrapped route handler error as an observation named after the route', async () => {
    const res = await fetch(`${app.url}/api/fail`);
    expect(res.status).toBe(500);
    const span = await firstSpan(local.server, 'GET /api/fail');
    expect(span.attributes).toMatchObject({
      ...nextErrorAttributes('unwrapped handler failed', { routeType: 'route', routerKind: 'App Router' }),
      'obs.trace.name': 'GET /api/fail',
    });
    expect(span.events.some((e) => e.name === 'exception')).toBe(true);
  });

  it('records a server component render error', async () => {
    const res = await fetch(`${app.url}/broken`);
    expect(res.status).toBe(500);
    const span = await firstSpan(local.server, 'GET /broken');
    expect(span.attributes).toMatchObject(
      nextErrorAttributes('server component failed to render', { routeType: 'render', renderSource: 'react-server-components' }),
    );
    expect(span.parentSpanId).toBeUndefined();
  });
});

describe('server components and server actions', () => {
  it("puts a server component's observations in the trace of the request rendering it", async () => {
    const res = await fetch(`${app.url}/report?topic=Nice`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Nice has about 400,000 people.');
    await local.server.waitFor(() => local.server.spansByName('summarize').length > 0 && local.server.spansByName('lookup').length > 0, {
      timeoutMs: 10_000,
    });
    const [lookup] = local.server.spansByName('lookup');
    const [summarize] = local.server.spansByName('summarize');
    expect(lookup!.traceId).toBe(summarize!.traceId);
    expect(lookup!.attributes['obs.observation.type']).toBe('retriever');
    expect(expectWholeTrace(local.server.spansByTrace(lookup!.traceId))).toEqual([]);
  });

  it("traces a server action's observe() with the model call nested under it", async () => {
    const manifest = JSON.parse(readFileSync(path.join(EXAMPLE_DIR, '.next/server/server-reference-manifest.json'), 'utf8')) as {
      node: Record<string, { exportedName?: string }>;
    };
    const actionId = Object.entries(manifest.node).find(([, a]) => a.exportedName === 'ask')?.[0];
    expect(actionId).toBeDefined();
    const res = await fetch(`${app.url}/`, {
      method: 'POST',
      headers: { 'next-action': actionId!, 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component' },
      body: JSON.stringify(['What is six times seven?']),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('The answer is 42.');
    const chain = await firstSpan(local.server, 'answer-question');
    const spans = await traceOf(chain.traceId, 2);
    const generation = spans.find((s) => s.attributes['obs.observation.type'] === 'generation');
    expect(generation?.parentSpanId).toBe(chain.spanId);
    expect(chain.attributes['obs.observation.input']).toBe('What is six times seven?');
    expect(expectWholeTrace(spans)).toEqual([]);
  });
});

describe('Next.js infrastructure spans', () => {
  it('exports none of them', async () => {
    await fetch(`${app.url}/api/chat/1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message":"x"}' });
    await fetch(`${app.url}/report?topic=Metz`).then((r) => r.text());
    await local.server.waitFor(
      () => local.server.spansByName('summarize').length > 0 && local.server.spansByName('POST /api/chat/[id]').length > 0,
      {
        timeoutMs: 10_000,
      },
    );
    const scopes = new Set(local.server.spans().map((s) => s.scope.name));
    expect([...scopes]).toEqual(['obs-sdk']);
  });
});

describe('without obs configuration', () => {
  it('serves requests normally and warns once', async () => {
    const bare = await startNext(nextEnv({}));
    try {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${bare.url}/api/chat/9`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'hi' }),
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ id: '9', answer: 'Paris is the capital of France.' });
      }
      const warnings = bare
        .output()
        .split('\n')
        .filter((line) => line.includes('[obs]'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/missing .*OBS_BASE_URL/);
    } finally {
      await bare.stop();
    }
  });
});
