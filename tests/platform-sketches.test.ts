/**
 * The platform tier proven by two adapters that are not in the repository's packages: a Fastify
 * adapter on core's Node.js layer and a Hono adapter on its fetch layer (tests/platform-sketches/,
 * each under 100 lines), run on the real frameworks against the local obs server. Each must give
 * what the shipped adapters give: the root named after the route with input (redacted) and output,
 * identify's user on every span, children nested, the trace-id header, the error/status rule, and
 * ignored health checks.
 */
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { obsFastify } from './platform-sketches/fastify-adapter.js';
import { obsHono } from './platform-sketches/hono-adapter.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });

const answer = (message: string) =>
  startActiveObservation('answer', async (o) => {
    o.update({ input: message, output: `echo: ${message}` });
    return `echo: ${message}`;
  });

/** A framework app behind one `fetch`, so both run the same scenarios. */
interface Platform {
  name: string;
  start(): Promise<{ fetch: (path: string, init?: RequestInit) => Promise<Response>; close: () => Promise<void> }>;
}

const identify = (user: string | undefined) => ({ userId: user ?? 'anonymous' });

const platforms: Platform[] = [
  {
    name: 'Fastify on the Node.js layer',
    async start() {
      const app: FastifyInstance = Fastify();
      await app.register(obsFastify({ identify: (req) => identify(req.headers['x-user'] as string | undefined) }));
      app.post<{ Params: { id: string }; Body: { message: string } }>('/chat/:id', async (req) => ({
        answer: await answer(req.body.message),
      }));
      app.get('/crash', async () => {
        throw new Error('database on fire');
      });
      app.get('/missing', async () => {
        throw Object.assign(new Error('no such ticket'), { statusCode: 404 });
      });
      app.get('/health', async () => 'ok');
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      return { fetch: (path, init) => fetch(`${url}${path}`, init), close: () => app.close() };
    },
  },
  {
    name: 'Hono on the fetch layer',
    async start() {
      const app = new Hono();
      app.use(obsHono({ identify: (req) => identify(req.headers.get('x-user') ?? undefined) }));
      app.post('/chat/:id', async (c) => c.json({ answer: await answer((await c.req.json()).message) }));
      app.get('/crash', () => {
        throw new Error('database on fire');
      });
      app.get('/missing', () => {
        throw new HTTPException(404, { message: 'no such ticket' });
      });
      app.get('/health', (c) => c.text('ok'));
      // As an app does: HTTP errors answer themselves, the rest is a plain 500.
      app.onError((err, c) => (err instanceof HTTPException ? err.getResponse() : c.text('Internal Server Error', 500)));
      return { fetch: async (path, init) => app.fetch(new Request(`http://sketch.local${path}`, init)), close: async () => undefined };
    },
  },
];

async function trace(res: Response, spans: number): Promise<{ root: DecodedSpan; all: DecodedSpan[] }> {
  // A fetch response's root ends when its body has been read, as a server reads it.
  if (!res.bodyUsed) await res.text();
  const traceId = res.headers.get('x-obs-trace-id');
  expect(traceId, 'x-obs-trace-id').toMatch(/^[0-9a-f]{32}$/);
  await local.handle.flush();
  const all = await local.server.waitFor(() => {
    const s = local.server.spansByTrace(traceId!);
    return s.length >= spans ? s : undefined;
  });
  expect(all).toHaveLength(spans);
  const root = all.find((s) => !s.parentSpanId)!;
  return { root, all };
}

describe.each(platforms)('$name', (platform) => {
  let app: Awaited<ReturnType<Platform['start']>>;
  beforeAll(async () => {
    app = await platform.start();
  });
  afterAll(async () => app?.close());

  it('one trace per request: the route-named root with redacted input and output, identify on every span, the child nested', async () => {
    const res = await app.fetch('/chat/7', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'u-7' },
      body: JSON.stringify({ message: 'hello', password: 'hunter2' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ answer: 'echo: hello' });
    const { root, all } = await trace(res, 2);
    expect(root.name).toBe('POST /chat/:id');
    expect(root.attributes).toMatchObject({ 'http.route': '/chat/:id', 'http.response.status_code': 200, 'user.id': 'u-7' });
    expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ message: 'hello', password: '[REDACTED]' });
    expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({ answer: 'echo: hello' });
    const child = all.find((s) => s.name === 'answer')!;
    expect(child.parentSpanId).toBe(root.spanId);
    expect(child.attributes['user.id']).toBe('u-7');
  });

  it('a crash answered 500 is level ERROR with its message', async () => {
    const res = await app.fetch('/crash');
    expect(res.status).toBe(500);
    const { root } = await trace(res, 1);
    expect(root.name).toBe('GET /crash');
    expect(root.attributes).toMatchObject({
      'obs.observation.level': 'ERROR',
      'obs.observation.status_message': 'database on fire',
      'http.response.status_code': 500,
    });
  });

  it('an error answered with a 4xx is the client’s: its message, level unchanged', async () => {
    const res = await app.fetch('/missing');
    expect(res.status).toBe(404);
    const { root } = await trace(res, 1);
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['obs.observation.status_message']).toBe('no such ticket');
    expect(root.status.code).not.toBe(2);
  });

  it('health checks make no trace', async () => {
    const res = await app.fetch('/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-obs-trace-id')).toBeNull();
    await local.handle.flush();
    expect(local.server.spans()).toHaveLength(0);
  });
});
