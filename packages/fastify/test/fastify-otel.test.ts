/**
 * Next to `@fastify/otel` (Fastify's own OpenTelemetry instrumentation, registered on an app's
 * NodeTracerProvider before the app is created): obs attaches to that provider, and each request
 * is still one obs tree rooted at the request root, with no Fastify span in it and a link to the
 * span it ran under; the app's exporter keeps its Fastify spans and gets no obs observation.
 */
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { initObs } from '@obs/core';
import { obsPlugin } from '@obs/fastify';
import { setupObsServer, initTestObs } from '@obs/local-server/testing';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from './fixtures.js';
import { listen, type Running, traceOf } from './harness.js';

const appExporter = new InMemorySpanExporter();
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(appExporter)] }).register();
registerInstrumentations({ instrumentations: [new FastifyOtelInstrumentation({ registerOnInitialization: true })] });

const local = setupObsServer({ init: initTestObs(initObs) });

describe('@obs/fastify next to @fastify/otel', () => {
  let app: Running;
  beforeAll(async () => {
    expect(local.handle.mode).toBe('attached');
    const fastify = Fastify();
    await fastify.register(obsPlugin, { identify: (request) => ({ userId: request.user?.id }) });
    routes(fastify);
    app = await listen(fastify);
  });
  afterAll(async () => app?.close());

  it('one obs tree per request, no Fastify span in it; the app’s exporter keeps its Fastify spans', async () => {
    appExporter.reset();
    const res = await app.fetch('/api/chat/5', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'u-5' },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(await res.json()).toEqual({ answer: 'echo: hi' });
    await local.handle.flush();
    const { root, all } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 2);
    expect(root.name).toBe('POST /api/chat/:id');
    expect(all.map((s) => s.scope.name)).toEqual(['obs-sdk', 'obs-sdk']);
    expect(all.find((s) => s.name === 'answer')!.parentSpanId).toBe(root.spanId);
    for (const s of all) expect(s.attributes['user.id'], s.name).toBe('u-5');
    expect(local.server.spans()).toHaveLength(2);
    // @fastify/otel was active: its request span, and the hooks' and handler's spans under it.
    const fastifySpans = appExporter.getFinishedSpans().filter((s) => s.instrumentationScope.name === '@fastify/otel');
    const request = fastifySpans.find((s) => s.name === 'request')!;
    expect(request).toBeDefined();
    expect(fastifySpans.some((s) => s.name.startsWith('handler - '))).toBe(true);
    // The obs root names the framework span it ran under, in the same trace.
    expect(root.links.map((l) => l.traceId)).toEqual([request.spanContext().traceId]);
    expect(fastifySpans.map((s) => s.spanContext().spanId)).toContain(root.links[0]!.spanId);
    // The app's Fastify spans keep their own tree: every parent is one of them.
    const appIds = new Set(fastifySpans.map((s) => s.spanContext().spanId));
    for (const s of fastifySpans) if (s.parentSpanContext) expect(appIds.has(s.parentSpanContext.spanId), s.name).toBe(true);
    // No obs observation reached the app's exporter (shareObservations is off).
    expect(appExporter.getFinishedSpans().filter((s) => s.instrumentationScope.name === 'obs-sdk')).toEqual([]);
  });
});
