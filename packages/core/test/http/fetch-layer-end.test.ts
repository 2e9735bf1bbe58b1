/**
 * What the fetch layer and the kit give an adapter beyond running the handler: a response whose body
 * nobody reads still ends its trace (after `unreadBodyMs`, or at the runtime's end of request), a
 * body being read is never cut by that timer, `flushAfterResponse` hands the flush to `waitUntil`
 * and resolves once the spans are on the server, and `AdapterGuard` keeps an adapter's own bug out
 * of the request: one warning, the app's own outcome.
 */
import { setupObsServer } from '@obs/local-server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { initObs, startActiveObservation } from '../../src/index.js';
import { AdapterGuard } from '../../src/kit.js';
import { delay, FetchHttpObserver, flushAfterResponse } from '../../src/http/index.js';
import { captureLogs, restoreLogger } from '../support/server.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushOnExit: false }) });

const roots = () => local.server.spans().filter((s) => !s.parentSpanId);

describe('the fetch layer ends every request', () => {
  const layer = new FetchHttpObserver({}, { adapter: 'test', unreadBodyMs: 100 });
  const handler = () => startActiveObservation('answer', async () => new Response('hello', { headers: { 'content-type': 'text/plain' } }));

  it('a body nobody reads: the root ends after unreadBodyMs, with its status and no output', async () => {
    const request = layer.start(new Request('http://app.local/never-read'))!;
    const res = await request.run(handler);
    expect(res.status).toBe(200);
    await request.done;
    await local.handle.flush();
    const [root] = roots();
    expect(roots()).toHaveLength(1);
    expect(root!.name).toBe('GET /never-read');
    expect(root!.attributes['http.response.status_code']).toBe(200);
    expect(root!.attributes['obs.observation.output']).toBeUndefined();
    expect(root!.attributes['obs.observation.level']).toBeUndefined();
    expect(local.server.spans()).toHaveLength(2);
  });

  it('a body being read is not cut by the timer: it ends with the stream, its text recorded', async () => {
    const request = layer.start(new Request('http://app.local/slow'))!;
    let push!: (s: string) => void;
    let close!: () => void;
    const body = new ReadableStream<string>({
      start(c) {
        push = (s) => c.enqueue(s);
        close = () => c.close();
      },
    }).pipeThrough(new TextEncoderStream());
    const res = await request.run(() => new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    push('data: one\n\n');
    expect((await reader.read()).value).toBe('data: one\n\n');
    // Three times unreadBodyMs with the stream open: the root must still be open.
    await delay(300);
    await local.handle.flush();
    expect(roots()).toHaveLength(0);
    push('data: two\n\n');
    close();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += r.value;
    expect(rest).toBe('data: two\n\n');
    await request.done;
    await local.handle.flush();
    expect(roots()).toHaveLength(1);
    expect(roots()[0]!.attributes['obs.observation.output']).toBe('data: one\n\ndata: two\n\n');
    expect(roots()[0]!.attributes['obs.observation.level']).toBeUndefined();
  });

  it('endBy: the runtime’s end of request ends a body left half read as cancelled, and one never read with its status', async () => {
    const slow = new FetchHttpObserver({}, { adapter: 'test', unreadBodyMs: 60_000 });
    const unread = slow.start(new Request('http://app.local/unread'))!;
    await unread.run(handler);
    let closeUnread!: () => void;
    unread.endBy(new Promise<void>((r) => (closeUnread = r)));
    const half = slow.start(new Request('http://app.local/half'))!;
    const res = await half.run(() => new Response(new ReadableStream({ pull: (c) => c.enqueue(new TextEncoder().encode('tick ')) })));
    await res.body!.getReader().read();
    let closeHalf!: () => void;
    half.endBy(new Promise<void>((r) => (closeHalf = r)));
    closeUnread();
    closeHalf();
    await Promise.all([unread.done, half.done]);
    await local.handle.flush();
    const byName = Object.fromEntries(roots().map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(['GET /half', 'GET /unread']);
    expect(byName['GET /unread']!.attributes['obs.observation.level']).toBeUndefined();
    expect(byName['GET /unread']!.attributes['http.response.status_code']).toBe(200);
    expect(byName['GET /half']!.attributes['obs.observation.level']).toBe('WARNING');
    expect(byName['GET /half']!.attributes['obs.observation.metadata.cancelled']).toBe(true);
  });

  it('endBy before the handler answered (the client left): the root ends cancelled, not waiting for the handler', async () => {
    const slow = new FetchHttpObserver({}, { adapter: 'test', unreadBodyMs: 60_000 });
    const request = slow.start(new Request('http://app.local/left'))!;
    let answer!: (res: Response) => void;
    const running = request.run(() => new Promise<Response>((r) => (answer = r)));
    request.endBy(Promise.resolve());
    await request.done;
    await local.handle.flush();
    const [root] = roots();
    expect(root!.name).toBe('GET /left');
    expect(root!.attributes['obs.observation.level']).toBe('WARNING');
    expect(root!.attributes['http.response.status_code']).toBeUndefined();
    answer(new Response('late'));
    expect(await (await running).text()).toBe('late');
    expect(local.server.spans()).toHaveLength(1);
  });

  it('flushAfterResponse hands waitUntil a promise that settles once the request’s spans are on the server', async () => {
    const kept: Promise<unknown>[] = [];
    const request = layer.start(new Request('http://app.local/served', { method: 'POST', body: '{"q":1}' }))!;
    const res = await request.run(handler);
    flushAfterResponse(local.handle, request, (p) => kept.push(p));
    expect(kept).toHaveLength(1);
    expect(await res.text()).toBe('hello');
    await kept[0];
    // No flush of the test's own: waitUntil's promise alone delivered the trace.
    expect(
      local.server
        .spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['POST /served', 'answer']);
  });
});

describe('AdapterGuard', () => {
  afterEach(() => restoreLogger());

  it('an adapter that throws before next: next runs plainly, one warning for any number of requests', async () => {
    const logs = captureLogs();
    const guard = new AdapterGuard('@obs/test');
    let served = 0;
    const next = async () => ++served;
    const results = [];
    for (let i = 0; i < 3; i++)
      results.push(
        await guard.around(async () => {
          throw new TypeError('adapter bug');
        }, next),
      );
    expect(results).toEqual([1, 2, 3]);
    const lines = logs.filter((l) => l.message.includes('@obs/test'));
    expect(lines.map((l) => l.level)).toEqual(['warn', 'debug', 'debug']);
    expect(lines[0]!.message).toContain('adapter bug');
  });

  it('an adapter that throws after next: the app’s own result, once; the app’s own error passes unchanged', async () => {
    const logs = captureLogs();
    const guard = new AdapterGuard('@obs/test');
    let calls = 0;
    const result = await guard.around(
      async (next) => {
        await next();
        throw new Error('adapter bug after');
      },
      async () => `app answer ${++calls}`,
    );
    expect(result).toBe('app answer 1');
    expect(calls).toBe(1);
    const appError = new Error('the app failed');
    await expect(
      guard.around(
        (next) => next(),
        async () => {
          throw appError;
        },
      ),
    ).rejects.toBe(appError);
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([expect.stringContaining('adapter bug after')]);
  });

  it('run: a throwing hook gives the fallback and never throws', () => {
    captureLogs();
    const guard = new AdapterGuard('@obs/test');
    expect(
      guard.run(() => {
        throw new Error('x');
      }, 'fallback'),
    ).toBe('fallback');
    expect(guard.run(() => 42)).toBe(42);
  });
});
