/**
 * `@obs/hono` on Cloudflare's real `workerd` (through `miniflare`, both from npm), the app bundled
 * by esbuild as wrangler does. The obs settings come from the Worker's `env` bindings (its
 * `process.env` is left empty), and the local obs server delays every export, so each response
 * returns before its spans are delivered: they leave through `c.executionCtx.waitUntil`, and none
 * is lost (counted), and obs's start-up line is logged as information, never as a warning (which
 * wrangler shows as `▲ [WARNING]`). Then under the freeze harness: the workerd process stopped (SIGSTOP) once each
 * response has been sent and its `waitUntil` work settled, thawed only for the next request.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FreezeHarness } from '@obs/local-server/freeze';
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

/** The `workerd` process this test process started (through Miniflare). */
function workerdPid(): number {
  const pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && comm.startsWith('workerd')) return Number(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  throw new Error('no workerd process started by this test');
}

describe.skipIf(!workerd.path)('Hono on workerd under the freeze harness', () => {
  let mf: Miniflare;
  let harness: FreezeHarness;
  let control: Server;
  beforeAll(async () => {
    // Where the Worker says an invocation settled (its response sent, its waitUntil work done).
    control = createServer((req, res) => {
      let id = '';
      req.on('data', (d: Buffer) => (id += d.toString()));
      req.on('end', () => {
        harness.notify({ type: 'settled', id });
        res.end();
      });
    });
    await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
    const { port } = control.address() as AddressInfo;
    mf = new Miniflare({
      modules: [{ type: 'ESModule', path: 'worker.js', contents: await bundleWorker(`${packageDir}/test/fixtures/freeze-worker.ts`) }],
      compatibilityDate: '2025-09-01',
      compatibilityFlags: ['nodejs_compat', 'nodejs_compat_do_not_populate_process_env'],
      bindings: { ...local.server.env, FREEZE_URL: `http://127.0.0.1:${port}/settled` },
    });
    await mf.ready;
    harness = FreezeHarness.attach(workerdPid());
  }, 120_000);
  afterAll(async () => {
    if (harness?.isStopped()) harness.thaw();
    await mf?.dispose();
    await new Promise((resolve) => control?.close(resolve));
  });

  it('50 requests (answers, streams, crashes), each trace whole on the server while workerd is frozen', async () => {
    const expected = new Map<string, number>();
    for (let i = 0; i < 50; i++) {
      const id = `inv-${i}`;
      const [path, init, spans] =
        i % 10 === 8 ? ['/stream/news', {}, 4] : i % 10 === 9 ? ['/crash', {}, 1] : ['/chat/7', chatRequest(`u-${i}`), 2];
      harness.thaw();
      const res = await mf.dispatchFetch(`http://worker.local${path}`, {
        ...(init as object),
        headers: { ...((init as { headers?: Record<string, string> }).headers ?? {}), 'x-freeze': id },
      } as Parameters<Miniflare['dispatchFetch']>[1]);
      await res.text();
      expect((await harness.settled()).id).toBe(id);
      if (i === 0) {
        // The process frozen is the Worker's: a request to it gets no answer until it is thawed.
        const health = mf.dispatchFetch('http://worker.local/health');
        const early = await Promise.race([health.then(() => 'answered'), new Promise((r) => setTimeout(() => r('frozen'), 300))]);
        expect(early).toBe('frozen');
        harness.thaw();
        expect(await (await health).text()).toBe('ok');
        await harness.freeze();
      }
      const traceId = res.headers.get('x-obs-trace-id')!;
      // Frozen: only what the request delivered before it settled can be there.
      expect(local.server.spansByTrace(traceId), `trace of ${path} (${id}) while frozen`).toHaveLength(spans as number);
      expected.set(traceId, spans as number);
    }
    expect(expected.size).toBe(50);
    for (const [traceId, spans] of expected) expect(local.server.spansByTrace(traceId)).toHaveLength(spans);
    expect(local.server.spans()).toHaveLength([...expected.values()].reduce((a, b) => a + b, 0));
  }, 90_000);
});
