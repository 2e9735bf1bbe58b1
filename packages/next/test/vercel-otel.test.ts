/**
 * `@vercel/otel` registered first in instrumentation.ts (examples/next does when an OTLP endpoint is
 * configured), its exporter sending to a second local server standing for the app's own backend:
 * obs attaches, the request root is the root of its obs trace, the model call and the AI SDK spans
 * nest under it, no Next.js span reaches obs, and the app's backend still receives Next.js's spans
 * (and, with the default `shareObservations: false`, no obs observation).
 */
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askAiRoute, expectWholeTrace, nextEnv, startNext, waitForGenerationTrace } from './harness.js';

// Two servers: obs's, and one standing for the app's own OTLP backend.
const obsFixture = setupObsServer({ reset: false });
const backendFixture = setupObsServer({ reset: false });
let app: Awaited<ReturnType<typeof startNext>>;

beforeAll(async () => {
  const auth = Buffer.from(`${backendFixture.server.publicKey}:${backendFixture.server.secretKey}`).toString('base64');
  app = await startNext(
    nextEnv({
      ...obsFixture.server.env,
      OBS_LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${backendFixture.server.url}/api/public/otel/v1/traces`,
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: `authorization=Basic%20${auth}`,
    }),
  );
});

afterAll(async () => {
  await app?.stop();
});

function rootedAt(spans: DecodedSpan[], root: DecodedSpan): void {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (const s of spans) {
    let p = s;
    while (p.parentSpanId && byId.has(p.parentSpanId)) p = byId.get(p.parentSpanId)!;
    expect(p, `${s.name} reaches the request root`).toBe(root);
  }
}

describe('next to @vercel/otel', () => {
  it('one obs tree per request; the app backend keeps its Next.js spans and gets no obs observation', async () => {
    const res = await fetch(`${app.url}/api/chat/42`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': 'user-7' },
      body: JSON.stringify({ message: 'What is the capital of France?' }),
    });
    expect(res.status).toBe(200);
    const traceId = res.headers.get('x-obs-trace-id')!;
    const spans = await waitForGenerationTrace(obsFixture.server, traceId, 'POST /api/chat/[id]');
    expect(app.output()).toContain(
      `[obs] on: exporting to ${obsFixture.server.url} (obs attached its span processor to the registered tracer provider`,
    );
    const roots = spans.filter((s) => !s.parentSpanId);
    expect(roots.map((s) => s.name)).toEqual(['POST /api/chat/[id]']);
    expect(expectWholeTrace(spans)).toEqual([]);
    for (const s of spans) expect(s.scope.name, s.name).not.toMatch(/^(next\.js|@vercel\/otel)/);
    rootedAt(spans, roots[0]!);

    const appSpans = await backendFixture.server.waitFor(
      () => {
        const s = backendFixture.server.spansByTrace(traceId);
        return s.some((x) => x.scope.name === 'next.js') ? s : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(appSpans.filter((s) => s.scope.name === 'obs-sdk')).toEqual([]);
  });

  it('the AI SDK spans of a request nest under its obs root', async () => {
    const traceId = await askAiRoute(app.url);
    const spans = await waitForGenerationTrace(obsFixture.server, traceId, 'POST /api/ai');
    const roots = spans.filter((s) => !s.parentSpanId);
    expect(roots.map((s) => s.name)).toEqual(['POST /api/ai']);
    expect(spans.filter((s) => s.scope.name !== 'obs-sdk').length).toBeGreaterThanOrEqual(2);
    expect(expectWholeTrace(spans)).toEqual([]);
    rootedAt(spans, roots[0]!);
    for (const s of spans) expect(s.attributes['user.id'], s.name).toBe('user-ai');
  });
});
