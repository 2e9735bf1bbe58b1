/**
 * `@obs/hono` on Cloudflare's real `workerd` (through `miniflare`, both from npm), the app bundled
 * by esbuild as wrangler does. The obs settings come from the Worker's `env` bindings (its
 * `process.env` is left empty), and the local obs server delays every export, so each response
 * returns before its spans are delivered: they leave through `c.executionCtx.waitUntil`, and none
 * is lost (counted). obs's start-up line is logged as information, never as a warning (which
 * wrangler shows as `▲ [WARNING]`).
 */
import { Miniflare } from 'miniflare';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, expectChatTree, traceOf } from './harness.js';
import { packageDir, runtimeBinary } from './runtime-process.js';
import { bundleWorker } from './worker-bundle.mjs';

const local = setupObsServer();
const workerd = runtimeBinary('workerd');
if (workerd.unavailable) console.warn(`skipping the workerd tests: ${workerd.unavailable}`);

describe.skipIf(!workerd.path)('Hono on Cloudflare workerd', () => {
  let mf: Miniflare;
  /** What the Worker logged, with each line's level as workerd reports it (what wrangler prints). */
  const logged: { level: string; message: string }[] = [];
  const dispatch = (path: string, init?: RequestInit) =>
    mf.dispatchFetch(`http://worker.local${path}`, init as Parameters<Miniflare['dispatchFetch']>[1]);
  beforeAll(async () => {
    mf = new Miniflare({
      modules: [{ type: 'ESModule', path: 'worker.js', contents: await bundleWorker(`${packageDir}/test/fixtures/worker.ts`) }],
      compatibilityDate: '2025-09-01',
      // AsyncLocalStorage, without copying the bindings into process.env: obs must read `env` itself.
      compatibilityFlags: ['nodejs_compat', 'nodejs_compat_do_not_populate_process_env'],
      bindings: { ...local.server.env, OBS_FLUSH_INTERVAL: '60' },
      structuredWorkerdLogs: true,
      handleStructuredLogs: ({ level, message }: { level: string; message: string }) => void logged.push({ level, message }),
    });
    await mf.ready;
  }, 120_000);
  afterAll(async () => mf?.dispose());

  it('the chat request: the whole tree, delivered after the response through waitUntil', async () => {
    local.server.injectFault({ path: '/api/public/otel/v1/traces', delayMs: 1500, durationMs: 60_000 });
    const res = await dispatch('/chat/7', chatRequest('u-edge'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ answer: 'echo: hello' });
    // The response is complete; the export is still being answered.
    expect(local.server.spans()).toHaveLength(0);
    const { root, all } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 2);
    expectChatTree(root, all, 'u-edge');
  });

  it('30 requests, 5 at a time, each answered before its export finished: 0 spans lost', async () => {
    local.server.injectFault({ path: '/api/public/otel/v1/traces', delayMs: 500, durationMs: 120_000 });
    const traceIds: string[] = [];
    for (let wave = 0; wave < 6; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 5 }, async (_, i) => {
          const res = await dispatch('/chat/7', chatRequest(`u-${wave}-${i}`));
          expect(await res.json()).toEqual({ answer: 'echo: hello' });
          return res.headers.get('x-obs-trace-id')!;
        }),
      );
      traceIds.push(...answers);
    }
    expect(new Set(traceIds).size).toBe(30);
    await local.server.waitFor(() => local.server.spans().length >= 60 || undefined, { timeoutMs: 30_000, description: '60 spans' });
    expect(local.server.spans()).toHaveLength(60);
    expect(local.server.traceIds().sort()).toEqual([...traceIds].sort());
    for (const id of traceIds)
      expect(
        local.server
          .spansByTrace(id)
          .map((s) => s.name)
          .sort(),
      ).toEqual(['POST /chat/:id', 'answer']);
  }, 60_000);

  it('an SSE stream, a crash and a 4xx on workerd: the same rules', async () => {
    const stream = await dispatch('/stream/news');
    const body = await stream.text();
    expect(body).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    const crash = await dispatch('/crash');
    expect(crash.status).toBe(500);
    await crash.text();
    const missing = await dispatch('/missing');
    expect(missing.status).toBe(404);
    await missing.text();
    const { root: s } = await traceOf(local.server, stream.headers.get('x-obs-trace-id'), 4);
    expect(s.attributes['obs.observation.output']).toBe(body);
    const { root: c } = await traceOf(local.server, crash.headers.get('x-obs-trace-id'), 1);
    expect(c.attributes).toMatchObject({ 'obs.observation.level': 'ERROR', 'obs.observation.status_message': 'database on fire' });
    const { root: m } = await traceOf(local.server, missing.headers.get('x-obs-trace-id'), 1);
    expect(m.attributes['obs.observation.level']).toBeUndefined();
    expect(local.server.spans()).toHaveLength(6);
  });

  it("obs's start-up line is information, not a warning; obs logs nothing else", () => {
    const obsLines = logged.filter((l) => l.message.includes('[obs]'));
    expect(obsLines).toEqual([{ level: 'info', message: expect.stringMatching(/^\[obs\] on: exporting to http:\/\/127\.0\.0\.1:\d+ /) }]);
  });
});
