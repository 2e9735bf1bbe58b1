/**
 * The contract the Node.js HTTP server adapters (`@obs/fastify`, `@obs/koa`) keep, as one list of
 * scenarios each adapter's suite runs against its own app over real HTTP, the way `@obs/hono`'s
 * runtime-scenarios run one list on four runtimes. Each app (the adapter's `test/fixtures.ts`)
 * serves the same routes, written as that framework's apps write them:
 * - `POST /api/chat/:id`: route-level auth (a 401 without `x-user`), a child `answer`, `{ answer }`;
 * - `GET /api/profile`: after the app's auth, a child `answer`, `{ user, greeting }`;
 * - `GET /sse`: server-sent events `data: one|two|three`, a child `answer` per event;
 * - `GET /raw-sse`: `data: a`, `data: b` written to the raw Node.js response; `GET /text`: `plain words`;
 * - `GET /crash` throws `database on fire`; `GET /tickets/:id` throws a 404 `no such ticket`;
 * - `GET /billing/charge|unpaid` throw; the app's error handler answers 503 `{ error: 'billing is
 *   down' }` or 402;
 * - `GET /health`: `ok` (ignored by the adapters' default).
 * The suite's `identify` gives the user its auth set (else `anonymous`) and `x-session`'s session.
 * What only one framework has (Fastify's hooks, Koa's `ctx.throw` message) stays in its own suite.
 */
import type { ObsServer } from '@obs/local-server';
import { traceOf as arrivedTrace, type ObsServerFixture } from '@obs/local-server/testing';
import { expect, it } from 'vitest';

/** An app listening on a free port, reached with `fetch`. */
export interface Running {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** One trace once its root and exactly `count` spans arrived: its root, and `all` its spans. */
export async function traceOf(server: ObsServer, traceId: string | null, count: number) {
  const { root, spans } = await arrivedTrace(server, traceId, { spans: count, exact: true });
  return { root, all: spans };
}

/** The chat request: signed in as `user` (none: refused), session `s-1`, a password to redact. */
export const chatRequest = (user?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(user ? { 'x-user': user } : {}), 'x-session': 's-1' },
  body: JSON.stringify({ message: 'hello', password: 'hunter2' }),
});

/** Registers the scenarios in the calling `describe`; `app()` is the adapter's app, once listening. */
export function nodeAdapterScenarios(local: ObsServerFixture<{ flush(): Promise<unknown> }>, app: () => Running): void {
  it('one trace per request: the prefixed route pattern, the parsed body redacted, the reply’s value, identify after auth on every span', async () => {
    const res = await app().fetch('/api/chat/7', chatRequest('u-7'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ answer: 'echo: hello' });
    await local.handle.flush();
    const { root, all } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 2);
    expect(root.name).toBe('POST /api/chat/:id');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/api/chat/:id',
      'url.path': '/api/chat/7',
      'http.response.status_code': 200,
      'user.id': 'u-7',
      'session.id': 's-1',
    });
    expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ message: 'hello', password: '[REDACTED]' });
    expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({ answer: 'echo: hello' });
    const child = all.find((s) => s.name === 'answer')!;
    expect(child.parentSpanId).toBe(root.spanId);
    expect(child.attributes['user.id']).toBe('u-7');
    expect(local.server.spans()).toHaveLength(2);
  });

  it('a request the route’s auth refused: traced, identified anonymous, a 401 that is the client’s', async () => {
    const res = await app().fetch('/api/chat/7', chatRequest());
    expect(res.status).toBe(401);
    await res.text();
    await local.handle.flush();
    const { root } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 1);
    expect(root.name).toBe('POST /api/chat/:id');
    expect(root.attributes['user.id']).toBe('anonymous');
    expect(root.attributes['obs.observation.level']).toBeUndefined();
  });

  it('a request without a body: its query is the input; identify sees the user the app’s auth set, on every span', async () => {
    const res = await app().fetch('/api/profile?tab=2', { headers: { 'x-user': 'u-pre' } });
    expect(await res.json()).toEqual({ user: 'u-pre', greeting: 'echo: profile' });
    await local.handle.flush();
    const { root, all } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 2);
    expect(root.name).toBe('GET /api/profile');
    expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ tab: '2' });
    for (const s of all) expect(s.attributes['user.id'], s.name).toBe('u-pre');
  });

  it('server-sent events with a child per event, events written to the raw response, a text body: reassembled as sent', async () => {
    const sse = await app().fetch('/sse');
    const events = await sse.text();
    expect(events).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    const raw = await app().fetch('/raw-sse');
    expect(await raw.text()).toBe('data: a\n\ndata: b\n\n');
    const text = await app().fetch('/text');
    expect(await text.text()).toBe('plain words');
    await local.handle.flush();
    const { root: s, all } = await traceOf(local.server, sse.headers.get('x-obs-trace-id'), 4);
    expect(s.name).toBe('GET /sse');
    expect(s.attributes['obs.observation.output']).toBe(events);
    expect(all.filter((x) => x.name === 'answer' && x.parentSpanId === s.spanId)).toHaveLength(3);
    const { root: r } = await traceOf(local.server, raw.headers.get('x-obs-trace-id'), 1);
    expect(r.attributes['obs.observation.output']).toBe('data: a\n\ndata: b\n\n');
    const { root: t } = await traceOf(local.server, text.headers.get('x-obs-trace-id'), 1);
    expect(t.attributes['obs.observation.output']).toBe('plain words');
  });

  it('errors: a crash is ERROR with its message, a 404 thrown is the client’s', async () => {
    const crash = await app().fetch('/crash');
    expect(crash.status).toBe(500);
    await crash.text();
    const missing = await app().fetch('/tickets/9');
    expect(missing.status).toBe(404);
    await missing.text();
    await local.handle.flush();
    const { root: c } = await traceOf(local.server, crash.headers.get('x-obs-trace-id'), 1);
    expect(c.name).toBe('GET /crash');
    expect(c.attributes).toMatchObject({
      'obs.observation.level': 'ERROR',
      'obs.observation.status_message': 'database on fire',
      'http.response.status_code': 500,
    });
    expect(c.status.code).toBe(2);
    const { root: m } = await traceOf(local.server, missing.headers.get('x-obs-trace-id'), 1);
    expect(m.name).toBe('GET /tickets/:id');
    expect(m.attributes['obs.observation.level']).toBeUndefined();
    expect(m.attributes['obs.observation.status_message']).toBe('no such ticket');
  });

  it('errors the app’s error handler answers with a body of its own: the original error, judged by the status sent; the body it sent is the output', async () => {
    const down = await app().fetch('/billing/charge');
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: 'billing is down' });
    const unpaid = await app().fetch('/billing/unpaid');
    expect(unpaid.status).toBe(402);
    await unpaid.text();
    await local.handle.flush();
    const { root: d } = await traceOf(local.server, down.headers.get('x-obs-trace-id'), 1);
    expect(d.name).toBe('GET /billing/charge');
    expect(d.attributes).toMatchObject({ 'obs.observation.level': 'ERROR', 'obs.observation.status_message': 'card processor timed out' });
    expect(JSON.parse(d.attributes['obs.observation.output'] as string)).toEqual({ error: 'billing is down' });
    const { root: u } = await traceOf(local.server, unpaid.headers.get('x-obs-trace-id'), 1);
    expect(u.attributes['obs.observation.level']).toBeUndefined();
    expect(u.attributes['obs.observation.status_message']).toBe('invoice 7 unpaid');
  });

  it('health checks make no trace; a request no route matched is `METHOD <unmatched>` with its path', async () => {
    const health = await app().fetch('/health');
    expect(await health.text()).toBe('ok');
    expect(health.headers.get('x-obs-trace-id')).toBeNull();
    const nowhere = await app().fetch('/nowhere/7', { method: 'DELETE' });
    expect(nowhere.status).toBe(404);
    await nowhere.text();
    await local.handle.flush();
    const { root } = await traceOf(local.server, nowhere.headers.get('x-obs-trace-id'), 1);
    expect(root.name).toBe('DELETE <unmatched>');
    expect(root.attributes['url.path']).toBe('/nowhere/7');
    expect(local.server.spans()).toHaveLength(1);
  });
}

/**
 * The adapter-bug check both adapters make: with what obs reads broken, each of three requests is
 * served as the app answers it (201, `x-app: yes`, `{ fine: true }`), and the adapter said so in
 * exactly one line (`warn`: a spy on `console.warn`).
 */
export async function expectServedUnchanged(app: Running, warn: { mock: { calls: unknown[][] } }, adapter: string, reason: string) {
  for (let i = 0; i < 3; i++) {
    const res = await app.fetch('/ok');
    expect(res.status).toBe(201);
    expect(res.headers.get('x-app')).toBe('yes');
    expect(await res.json()).toEqual({ fine: true });
  }
  const lines = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes(adapter));
  expect(lines).toEqual([expect.stringContaining(reason)]);
}
