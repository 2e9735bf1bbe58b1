/**
 * `@obs/next` under the freeze harness: the example app's real production build served by
 * `next start`, on a platform that freezes the function (SIGSTOP) once each response has been sent
 * and every `waitUntil` promise has settled, as Vercel does (test/freeze-platform.mjs), and thaws it
 * only for the next request. Each request's trace is counted at the local obs server while the
 * process is frozen: a route handler's default path, work done in `after()`, and a streamed AI SDK
 * answer, 50 requests each; SIGKILL at the end loses nothing.
 */
import path from 'node:path';
import type { ObsServer } from '@obs/local-server';
import { FreezeHarness } from '@obs/local-server/freeze';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DIR, freePort, NEXT_BIN, nextEnv } from './harness.js';

const local = setupObsServer({ reset: false });
const PLATFORM = path.join(import.meta.dirname, 'freeze-platform.mjs');
let harness: FreezeHarness;
let url: string;
let n = 0;

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  harness = FreezeHarness.spawn(process.execPath, ['--import', PLATFORM, NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: EXAMPLE_DIR,
    env: nextEnv({ ...local.server.env }),
  });
  for (const deadline = Date.now() + 30_000; ; ) {
    // A static-asset path: answered by Next (404), not frozen, ignored by withObs.
    if (
      await fetch(`${url}/robots.txt`).then(
        (r) => r.text().then(() => true),
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`next start did not answer in 30 s:\n${harness.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);

afterAll(async () => harness?.kill());

/** One invocation: thaw, request, read the whole response, and wait until the platform froze the function. */
async function invoke(route: string, body: unknown, headers: Record<string, string> = {}): Promise<{ text: string; traceId: string }> {
  const id = `inv-${++n}`;
  harness.thaw();
  const res = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-freeze': id, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const settled = await harness.settled();
  expect(settled.id).toBe(id);
  return { text, traceId: res.headers.get('x-obs-trace-id')! };
}

/** The names of the trace's spans the server holds now (sorted). */
const names = (server: ObsServer, traceId: string) =>
  server
    .spansByTrace(traceId)
    .map((s) => s.name)
    .sort();

describe('@obs/next under the freeze harness (next start of the example, frozen after each response and its waitUntil)', () => {
  const whole = new Map<string, string[]>();

  it('a route handler (default path): 50 requests, each whole on the server while the function is frozen', async () => {
    for (let i = 0; i < 50; i++) {
      const { text, traceId } = await invoke(`/api/chat/c${i}`, { message: `q${i}` }, { 'x-user-id': 'u-freeze' });
      expect(JSON.parse(text)).toEqual({ id: `c${i}`, answer: 'Paris is the capital of France.' });
      const spans = names(local.server, traceId);
      expect(spans, `trace of request ${i} while frozen`).toEqual(['FakeListChatModel', 'POST /api/chat/[id]']);
      whole.set(traceId, spans);
    }
  }, 90_000);

  it('work in after(), once the response has gone: 50 requests, the evaluation in each trace while frozen', async () => {
    for (let i = 0; i < 50; i++) {
      const { text, traceId } = await invoke('/api/after', { message: `q${i}` });
      expect(JSON.parse(text)).toEqual({ answer: `You asked: q${i}` });
      const spans = names(local.server, traceId);
      expect(spans, `trace of request ${i} while frozen`).toEqual(['POST /api/after', 'evaluate answer']);
      whole.set(traceId, spans);
    }
  }, 90_000);

  it('a streamed AI SDK answer: 50 requests, the generation and the reassembled output in each trace while frozen', async () => {
    for (let i = 0; i < 50; i++) {
      const { text, traceId } = await invoke('/api/ai-stream', { message: 'Capital of Portugal?' }, { 'x-user-id': 'u-stream' });
      expect(text).toBe('Lisbon is the capital of Portugal.');
      const spans = local.server.spansByTrace(traceId);
      const root = spans.find((s) => s.name === 'POST /api/ai-stream');
      expect(root?.attributes['obs.observation.output'], `root of request ${i} while frozen`).toBe(text);
      expect(spans.filter((s) => s.attributes['obs.observation.type'] === 'generation')).toHaveLength(1);
      whole.set(traceId, names(local.server, traceId));
    }
  }, 90_000);

  it('killed while frozen: every trace of the 150 requests is whole, and nothing else arrived', async () => {
    await harness.kill();
    expect(whole.size).toBe(150);
    for (const [traceId, spans] of whole) expect(names(local.server, traceId)).toEqual(spans);
    expect(local.server.traceIds().sort()).toEqual([...whole.keys()].sort());
  });
});
