import { context, SpanKind, trace } from '@opentelemetry/api';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { initObs, startObservation } from '../../src/index.js';
import { isRedactedKey, redact, redactKeySet, TRUNCATION_MARKER } from '../../src/kit.js';
import { captureValue, hasContent, HttpObserver, NodeHttpObserver } from '../../src/http/index.js';
import { captureLogs, restoreLogger } from '../support/server.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushOnExit: false }) });

type Req = { user?: { id: string }; headers: Record<string, string> };

describe('HttpObserver / RequestObservation', () => {
  it('names the root after the route once known and records HTTP attributes', async () => {
    const observer = new HttpObserver<Req>();
    const ro = observer.start({ req: { headers: {} }, method: 'post', path: '/chat/42' });
    ro.setRoute('/chat/:id');
    ro.setRoute('/other'); // first match wins
    ro.setInput({ message: 'hi' }, { q: '1' });
    ro.setOutput({ answer: 'hello' }, {});
    ro.finish({ statusCode: 200 });
    await local.handle.flush();
    const [root] = local.server.spansByName('POST /chat/:id');
    expect(root).toBeDefined();
    expect(root!.attributes).toMatchObject({
      'obs.observation.type': 'span',
      'obs.trace.name': 'POST /chat/:id',
      'http.request.method': 'POST',
      'http.route': '/chat/:id',
      'url.path': '/chat/42',
      'http.response.status_code': 200,
      'obs.observation.input': '{"message":"hi"}',
      'obs.observation.output': '{"answer":"hello"}',
    });
    expect(root!.attributes['obs.observation.level']).toBeUndefined();
  });

  it('an invocation that is not HTTP (a queue batch): its own name and span kind, no HTTP attributes, the same capture and error rules', async () => {
    const observer = new HttpObserver<{ Records: unknown[] }>();
    const ro = observer.start({ req: { Records: [] }, method: '', path: '', event: { name: 'sqs orders', kind: SpanKind.CONSUMER } });
    ro.setRoute('/never');
    ro.setInput({ Records: [{ body: 'hi', token: 't' }] });
    ro.recordError(new Error('poison message'));
    ro.finish();
    await local.handle.flush();
    const [root] = local.server.spansByName('sqs orders');
    expect(root!.kind).toBe(5);
    expect(root!.attributes).toMatchObject({
      'obs.trace.name': 'sqs orders',
      'obs.observation.input': '{"Records":[{"body":"hi","token":"[REDACTED]"}]}',
      'obs.observation.level': 'ERROR',
    });
    for (const key of ['http.request.method', 'url.path', 'http.route']) expect(root!.attributes[key], key).toBeUndefined();
  });

  it('reports an invalid traceIdHeader name once, when the observer is made, and sends no header', async () => {
    const logs = captureLogs();
    try {
      const observer = new HttpObserver({ traceIdHeader: 'x trace id' });
      expect(observer.traceIdHeader).toBeUndefined();
      expect(logs.filter((l) => l.level === 'warn' && l.message.includes('"x trace id" is not a valid HTTP header name'))).toHaveLength(1);
      expect(new HttpObserver().traceIdHeader).toBe('x-obs-trace-id');
      expect(new HttpObserver({ traceIdHeader: false }).traceIdHeader).toBeUndefined();
      expect(new HttpObserver({ traceIdHeader: '' }).traceIdHeader).toBeUndefined();
      expect(logs.filter((l) => l.level !== 'debug')).toHaveLength(1);
    } finally {
      restoreLogger();
    }
  });

  it('still observes a request whose response headers went out before it started', async () => {
    const logs = captureLogs();
    try {
      const layer = new NodeHttpObserver({}, { adapter: 'test' });
      const listeners: (() => void)[] = [];
      const res = {
        statusCode: 200,
        headersSent: true,
        writableEnded: true,
        writableFinished: true,
        setHeader(name: string) {
          // As Node.js: ERR_HTTP_HEADERS_SENT once the head is written.
          throw Object.assign(new Error(`Cannot set headers after they are sent to the client (${name})`), {
            code: 'ERR_HTTP_HEADERS_SENT',
          });
        },
        on(event: string, fn: () => void) {
          if (event === 'close') listeners.push(fn);
          return this;
        },
      };
      const req = { method: 'GET', url: '/sent-early', headers: {}, res };
      (res as { req?: unknown }).req = req;
      const request = layer.start(req as never, res as never);
      expect(request).toBeDefined();
      for (const fn of listeners) fn.call(res);
      await local.handle.flush();
      expect(local.server.spansByName('GET /sent-early')).toHaveLength(1);
      // Neither "request not observed" nor any other warning: the header is simply not added.
      expect(logs.filter((l) => l.level !== 'debug')).toEqual([]);
    } finally {
      restoreLogger();
    }
  });

  it('runs identify lazily, late enough to see req.user, and propagates it to child spans', async () => {
    const req: Req = { headers: {} };
    const observer = new HttpObserver<Req>({
      identify: (r) => ({ userId: r.user?.id, sessionId: 's-1', tags: ['t'], metadata: { plan: 'pro', seats: 3 } }),
    });
    const ro = observer.start({ req, method: 'GET', path: '/me', route: '/me' });
    req.user = { id: 'u-7' }; // what auth middleware would do after the root started
    context.with(ro.context, () => {
      const gen = startObservation('llm', { model: 'm' }, { asType: 'generation' });
      trace.getTracer('plain').startSpan('plain').end();
      gen.end();
    });
    ro.finish({ statusCode: 200 });
    await local.handle.flush();
    for (const name of ['GET /me', 'llm', 'plain']) {
      const [span] = local.server.spansByName(name);
      expect(span, name).toBeDefined();
      expect(span!.attributes).toMatchObject({
        'user.id': 'u-7',
        'session.id': 's-1',
        'obs.trace.tags': ['t'],
        'obs.trace.metadata.plan': 'pro',
        'obs.trace.metadata.seats': 3,
      });
    }
    const root = local.server.spansByName('GET /me')[0]!;
    expect(local.server.spansByName('llm')[0]!.parentSpanId).toBe(root.spanId);
  });

  it('applies an async identify and lets the adapter wait for it', async () => {
    const observer = new HttpObserver<Req>({ identify: async () => ({ userId: 'async-user' }) });
    const ro = observer.start({ req: { headers: {} }, method: 'GET', path: '/a' });
    await ro.identify();
    context.with(ro.context, () => startObservation('child').end());
    ro.finish({ statusCode: 204 });
    await local.handle.flush();
    expect(local.server.spansByName('child')[0]!.attributes['user.id']).toBe('async-user');
    expect(local.server.spansByName('GET /a')[0]!.attributes['user.id']).toBe('async-user');
  });

  it("defers identify until allowed, and keeps identify's trace name while the span follows the route", async () => {
    const req: Req = { headers: {} };
    const observer = new HttpObserver<Req>({ identify: (r) => ({ userId: r.user?.id, traceName: 'chat' }) });
    const ro = observer.start({ req, method: 'POST', path: '/c/1', deferIdentify: true });
    context.with(ro.context, () => startObservation('before-auth').end()); // must not run identify yet
    req.user = { id: 'late-user' };
    ro.setRoute('/c/:id');
    ro.allowIdentify();
    context.with(ro.context, () => startObservation('after-auth').end());
    ro.finish({ statusCode: 200 });
    await local.handle.flush();
    // identify ran only after auth (with the late user), yet its identity reaches every span of
    // the request, also the one that ended before it ran.
    expect(local.server.spansByName('before-auth')[0]!.attributes['user.id']).toBe('late-user');
    expect(local.server.spansByName('after-auth')[0]!.attributes['user.id']).toBe('late-user');
    const root = local.server.spansByName('POST /c/:id')[0]!;
    expect(root.attributes).toMatchObject({ 'user.id': 'late-user', 'obs.trace.name': 'chat', 'http.route': '/c/:id' });
  });

  it('names unmatched requests with setName, and a custom name wins over everything', async () => {
    const observer = new HttpObserver<Req>();
    const ro = observer.start({ req: { headers: {} }, method: 'GET', path: '/nope/123' });
    ro.setName('GET <unmatched>');
    ro.finish({ statusCode: 404 });
    const custom = new HttpObserver<Req>({ name: () => 'my-name' }).start({ req: { headers: {} }, method: 'GET', path: '/x' });
    custom.setRoute('/x');
    custom.setName('GET other');
    custom.finish({ statusCode: 200 });
    await local.handle.flush();
    expect(local.server.spansByName('GET <unmatched>')[0]!.attributes['http.route']).toBeUndefined();
    expect(local.server.spansByName('my-name')[0]!.attributes).toMatchObject({ 'obs.trace.name': 'my-name', 'http.route': '/x' });
  });

  it('waits briefly for an async identify that first runs at finish', async () => {
    const observer = new HttpObserver<Req>({ identify: () => new Promise((r) => setTimeout(() => r({ userId: 'slow' }), 20)) });
    observer.start({ req: { headers: {} }, method: 'GET', path: '/slow' }).finish({ statusCode: 200 });
    await local.handle.flush(); // waits for the root, which ends once identify settled
    expect(local.server.spansByName('GET /slow')[0]!.attributes['user.id']).toBe('slow');
  });

  it('never throws when identify, captureInput or name throw', async () => {
    const observer = new HttpObserver<Req>({
      identify: () => {
        throw new Error('boom');
      },
      captureInput: () => {
        throw new Error('boom');
      },
      name: () => {
        throw new Error('boom');
      },
    });
    const ro = observer.start({ req: { headers: {} }, method: 'GET', path: '/x' });
    expect(() => ro.setInput({ a: 1 })).not.toThrow();
    expect(() => ro.finish({ statusCode: 200 })).not.toThrow();
    await local.handle.flush();
    expect(local.server.spansByName('GET /x')).toHaveLength(1);
  });

  it('marks 5xx and errors as ERROR, not 4xx, and aborts as cancelled', async () => {
    const observer = new HttpObserver<Req>();
    observer.start({ req: { headers: {} }, method: 'GET', path: '/500' }).finish({ statusCode: 503 });
    observer.start({ req: { headers: {} }, method: 'GET', path: '/404' }).finish({ statusCode: 404 });
    const failing = observer.start({ req: { headers: {} }, method: 'GET', path: '/err' });
    failing.recordError(new Error('handler failed'));
    failing.finish({ statusCode: 500 });
    observer.start({ req: { headers: {} }, method: 'GET', path: '/gone' }).finish({ aborted: true });
    await local.handle.flush();
    const by = (n: string) => local.server.spansByName(n)[0]!;
    expect(by('GET /500').attributes).toMatchObject({ 'obs.observation.level': 'ERROR', 'obs.observation.status_message': 'HTTP 503' });
    expect(by('GET /500').status.code).toBe(2);
    expect(by('GET /404').attributes['obs.observation.level']).toBeUndefined();
    expect(by('GET /err').attributes['obs.observation.status_message']).toBe('handler failed');
    expect(by('GET /err').events.map((e) => e.name)).toContain('exception');
    expect(by('GET /gone').attributes).toMatchObject({
      'obs.observation.level': 'WARNING',
      'obs.observation.metadata.cancelled': true,
    });
  });

  it('redacts keys at any depth, describes binary bodies and caps long values with a marker', async () => {
    const ro = new HttpObserver<Req>().start({ req: { headers: {} }, method: 'POST', path: '/r' });
    ro.setInput({ user: { password: 'p', profile: { apiKey: 'k', Authorization: 'x', name: 'n' } }, list: [{ token: 't' }] });
    ro.setOutput(Buffer.from('binary!'), {}, 'application/octet-stream');
    const textBytes = new HttpObserver<Req>().start({ req: { headers: {} }, method: 'GET', path: '/txt' });
    textBytes.setOutput(Buffer.from('{"token":"t","ok":1}'), {}, 'application/json; charset=utf-8');
    textBytes.finish({ statusCode: 200 });
    ro.finish({ statusCode: 200 });
    const ro2 = new HttpObserver<Req>({ maxCaptureBytes: 100 }).start({ req: { headers: {} }, method: 'POST', path: '/long' });
    ro2.addOutputChunk(`data: ${'x'.repeat(300)}\n\n`, {});
    ro2.finish({ statusCode: 200 });
    await local.handle.flush();
    const input = JSON.parse(local.server.spansByName('POST /r')[0]!.attributes['obs.observation.input'] as string);
    expect(input).toEqual({
      user: { password: '[REDACTED]', profile: { apiKey: '[REDACTED]', Authorization: '[REDACTED]', name: 'n' } },
      list: [{ token: '[REDACTED]' }],
    });
    expect(local.server.spansByName('POST /r')[0]!.attributes['obs.observation.output']).toBe('[binary 7 bytes, application/octet-stream]');
    expect(local.server.spansByName('GET /txt')[0]!.attributes['obs.observation.output']).toBe('{"token":"[REDACTED]","ok":1}');
    const out = local.server.spansByName('POST /long')[0]!.attributes['obs.observation.output'] as string;
    expect(out.startsWith('data: xxx')).toBe(true);
    expect(out).toContain(TRUNCATION_MARKER);
    expect(out).toContain('208 more characters'); // cut once, with the true count
    expect(out.length).toBeLessThan(160);
  });

  it('redacts an object reached twice both times, and never follows a cycle back to unredacted values', () => {
    const keys = redactKeySet(['password']);
    const creds = { user: 'u', password: 'hunter2' };
    expect(JSON.parse(captureValue({ a: creds, b: creds, list: [creds] }, keys, 10_000)!)).toEqual({
      a: { user: 'u', password: '[REDACTED]' },
      b: { user: 'u', password: '[REDACTED]' },
      list: [{ user: 'u', password: '[REDACTED]' }],
    });
    const looped: Record<string, unknown> = { password: 'hunter2' };
    looped.self = looped;
    const text = captureValue({ looped }, keys, 10_000)!;
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text)).toEqual({ looped: { password: '[REDACTED]', self: '[Circular]' } });
  });

  it('finds a cycle back to the root at the first level, in objects, arrays and maps; returns flat values untouched', () => {
    const keys = redactKeySet(['password']);
    const root: Record<string, unknown> = { password: 'hunter2', name: 'n' };
    root.self = root;
    expect(redact(root, keys)).toEqual({ password: '[REDACTED]', name: 'n', self: '[Circular]' });
    const list: unknown[] = [{ password: 'p' }];
    list.push(list);
    expect(redact(list, keys)).toEqual([{ password: '[REDACTED]' }, '[Circular]']);
    const map = new Map<string, unknown>([['password', 'p']]);
    map.set('again', map);
    expect(redact(map, keys)).toEqual({ password: '[REDACTED]', again: '[Circular]' });
    const flat = { message: 'hello', n: 1, tags: ['a'] };
    expect(redact(flat, keys)).toBe(flat);
  });

  it('counts a body or query as content only when it holds something', () => {
    const inherited = Object.create({ fromProto: 1 }) as object;
    const none = [undefined, null, '', {}, [], inherited].map(hasContent);
    const some = ['x', 0, false, { a: 1 }, [0], new Uint8Array(0), { a: undefined }].map(hasContent);
    expect(none).toEqual([false, false, false, false, false, false]);
    expect(some).toEqual([true, true, true, true, true, true, true]);
  });

  it('ignores health checks, OPTIONS and static assets by default, and custom rules when given', () => {
    const observer = new HttpObserver<Req>();
    expect(observer.ignores('GET', '/health', { headers: {} })).toBe(true);
    expect(observer.ignores('GET', '/readyz', { headers: {} })).toBe(true);
    expect(observer.ignores('OPTIONS', '/chat', { headers: {} })).toBe(true);
    expect(observer.ignores('GET', '/assets/app.3f2a.js', { headers: {} })).toBe(true);
    expect(observer.ignores('GET', '/chat', { headers: {} })).toBe(false);
    const custom = new HttpObserver<Req>({ ignore: ['/internal', /^\/admin/] });
    expect(custom.ignores('GET', '/internal', { headers: {} })).toBe(true);
    expect(custom.ignores('GET', '/admin/x', { headers: {} })).toBe(true);
    expect(custom.ignores('GET', '/health', { headers: {} })).toBe(false);
    const fn = new HttpObserver<Req>({ ignore: (r) => r.headers['x-skip'] === '1' });
    expect(fn.ignores('GET', '/a', { headers: { 'x-skip': '1' } })).toBe(true);
    expect(fn.ignores('GET', '/a', { headers: {} })).toBe(false);
  });
});

describe('redaction beyond plain parsed JSON', () => {
  const keys = redactKeySet(['password', 'apiKey', 'token']);

  it('judges each key per key set (verdicts are remembered per set, never shared between sets)', () => {
    const other = redactKeySet(['session']);
    for (let round = 0; round < 2; round++) {
      expect([isRedactedKey('x-api-key', keys), isRedactedKey('X_API_KEY', keys), isRedactedKey('max_tokens', keys)]).toEqual([
        true,
        true,
        false,
      ]);
      expect([isRedactedKey('x-api-key', other), isRedactedKey('sessionToken', other), isRedactedKey('sessionId', other)]).toEqual([
        false,
        true,
        false,
      ]);
    }
  });

  it('redacts JSON text cut at a cap (unparseable) by key, quoted or not', () => {
    const cut = '{"user":"a","password":"hun\\"ter2","apiKey": 12345, "nested":{"token":"abc';
    const out = captureValue(cut, keys, 10_000)!;
    expect(out).not.toContain('hun');
    expect(out).not.toContain('12345');
    expect(out).not.toContain('abc');
    expect(out).toContain('"user":"a"');
  });

  it('walks class instances and Maps, and omits what is nested deeper than the walk', () => {
    class Credentials {
      password = 'p-secret';
      name = 'n';
    }
    const deep: Record<string, unknown> = {};
    let cur = deep;
    for (let i = 0; i < 40; i++) cur = (cur.x = {}) as Record<string, unknown>;
    cur.password = 'deep-secret';
    const out = captureValue({ c: new Credentials(), m: new Map([['token', 'm-secret']]), deep }, keys, 100_000)!;
    expect(out).toContain('"name":"n"');
    for (const secret of ['p-secret', 'm-secret', 'deep-secret']) expect(out).not.toContain(secret);
  });
});
