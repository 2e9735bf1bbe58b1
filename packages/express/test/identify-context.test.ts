/**
 * identify(req) runs late enough to see what auth middleware put on `req`, and its user,
 * session, tags, metadata and version reach every span of the request (an obs generation and
 * a plain OpenTelemetry span), across await, timers and stream callbacks; the handler chain runs
 * inside the request's context, whose parent is the active context (an incoming traceparent).
 */
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { startActiveObservation, startObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { obsErrorHandler, obsMiddleware } from '../src/index.js';
import { EXPRESS_VERSIONS, traceOf, initTestObs, setupObsServer, waitForTrace, type Express } from './harness.js';

const h = setupObsServer({ init: initTestObs });

type AuthedRequest = Request & { user?: { id: string; plan: string } };

const identify = (req: Request) => {
  const user = (req as AuthedRequest).user;
  return user
    ? {
        userId: user.id,
        sessionId: String(req.headers['x-session'] ?? 'none'),
        tags: ['express', user.plan],
        metadata: { plan: user.plan, region: 'eu' },
        version: 'v-test',
      }
    : undefined;
};

/** What auth middleware does: reads a header and puts the user on the request. */
function auth(req: Request, _res: Response, next: NextFunction): void {
  const id = req.headers['x-user'];
  if (typeof id === 'string') (req as AuthedRequest).user = { id, plan: 'pro' };
  next();
}

const tracer = trace.getTracer('plain-otel-test');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A handler doing LLM-ish work: an agent, a generation inside it, plain OTel spans after await, a timer and stream callbacks. */
async function llmWork(req: Request, res: Response): Promise<void> {
  const answer = await startActiveObservation(
    'agent',
    async () => {
      await sleep(2);
      const gen = startObservation(
        'llm-call',
        { model: 'fake-model', input: [{ role: 'user', content: req.params.id }] },
        { asType: 'generation' },
      );
      await sleep(1);
      gen.update({ output: 'hello', usageDetails: { input: 3, output: 1, total: 4 } }).end();
      return 'hello';
    },
    { asType: 'agent' },
  );
  tracer.startSpan('plain-after-await').end();
  await new Promise<void>((resolve) => {
    setTimeout(() => {
      tracer.startSpan('plain-in-timer').end();
      resolve();
    }, 1);
  });
  await new Promise<void>((resolve) => {
    const stream = Readable.from(['a', 'b']);
    stream.on('data', () => undefined);
    stream.on('end', () => {
      tracer.startSpan('plain-in-stream-callback').end();
      resolve();
    });
  });
  res.json({ answer });
}

function expectIdentified(span: DecodedSpan | undefined, user: string, session: string): void {
  expect(span, 'span').toBeDefined();
  expect(span!.attributes).toMatchObject({
    'user.id': user,
    'session.id': session,
    'obs.trace.metadata.plan': 'pro',
    'obs.trace.metadata.region': 'eu',
    'obs.version': 'v-test',
  });
  expect(span!.attributes['obs.trace.tags']).toEqual(['express', 'pro']);
}

function ancestors(spans: DecodedSpan[], span: DecodedSpan): string[] {
  const names: string[] = [];
  let cur: DecodedSpan | undefined = span;
  while (cur?.parentSpanId) {
    cur = spans.find((s) => s.spanId === cur!.parentSpanId);
    if (cur) names.push(cur.name);
  }
  return names;
}

describe.each(EXPRESS_VERSIONS)('identify and context on $name', ({ express }) => {
  function app(setup: (app: ReturnType<Express>) => void) {
    const a = express();
    a.use(obsMiddleware({ identify }));
    setup(a);
    a.use(obsErrorHandler());
    return a;
  }

  it('sees req.user set by app-level auth and propagates it to a nested generation and plain OTel spans', async () => {
    const a = app((a) => {
      a.use(auth);
      a.post('/chat/:id', llmWork);
    });
    const res = await request(a).post('/chat/c1').set('x-user', 'u-42').set('x-session', 's-9').send({ message: 'hi' });
    expect(res.body).toEqual({ answer: 'hello' });
    const { root, spans } = await traceOf(h, res, 5);
    expect(root.name).toBe('POST /chat/:id');
    expectIdentified(root, 'u-42', 's-9');
    const gen = spans.find((s) => s.name === 'llm-call')!;
    expectIdentified(gen, 'u-42', 's-9');
    expect(gen.attributes['obs.observation.type']).toBe('generation');
    expect(ancestors(spans, gen)).toEqual(['agent', 'POST /chat/:id']);
    for (const name of ['agent', 'plain-after-await', 'plain-in-timer', 'plain-in-stream-callback']) {
      const span = spans.find((s) => s.name === name);
      expectIdentified(span, 'u-42', 's-9');
      expect(span!.traceId).toBe(root.traceId);
    }
    for (const name of ['plain-after-await', 'plain-in-timer', 'plain-in-stream-callback']) {
      expect(spans.find((s) => s.name === name)!.parentSpanId).toBe(root.spanId);
    }
  });

  it('runs identify after route-level auth middleware when the handler starts spans', async () => {
    const a = app((a) => {
      a.post('/me/:id', auth, llmWork);
    });
    const res = await request(a).post('/me/x').set('x-user', 'u-route').set('x-session', 's-r');
    const { root, spans } = await traceOf(h, res, 5);
    expectIdentified(root, 'u-route', 's-r');
    expectIdentified(
      spans.find((s) => s.name === 'llm-call'),
      'u-route',
      's-r',
    );
  });

  it('waits for routing when a span starts in middleware before auth (OTel-instrumented middleware)', async () => {
    const a = app((a) => {
      a.use((_req, _res, next) => {
        tracer.startSpan('early-middleware-span').end();
        next();
      });
      a.use(auth);
      a.post('/chat/:id', async (req, res) => {
        await sleep(1);
        await llmWork(req, res);
      });
    });
    const res = await request(a).post('/chat/e').set('x-user', 'u-late').set('x-session', 's-l');
    const { root, spans } = await traceOf(h, res, 6);
    expectIdentified(root, 'u-late', 's-l');
    expectIdentified(
      spans.find((s) => s.name === 'llm-call'),
      'u-late',
      's-l',
    );
    const early = spans.find((s) => s.name === 'early-middleware-span')!;
    expect(early.parentSpanId).toBe(root.spanId);
    // identify waited for routing (it saw the auth user), and its identity reaches every span
    // of the request, also the one started before it ran.
    expect(early.attributes['user.id']).toBe('u-late');
  });

  it('sees route-level auth even when a span started before routing', async () => {
    const a = app((a) => {
      a.use((_req, _res, next) => {
        tracer.startSpan('early-middleware-span').end();
        next();
      });
      a.post('/me/:id', auth, llmWork);
    });
    const res = await request(a).post('/me/e').set('x-user', 'u-rl').set('x-session', 's-rl');
    const { root, spans } = await traceOf(h, res, 6);
    expectIdentified(root, 'u-rl', 's-rl');
    expectIdentified(
      spans.find((s) => s.name === 'agent'),
      'u-rl',
      's-rl',
    );
    expect(spans.find((s) => s.name === 'early-middleware-span')!.attributes['user.id']).toBe('u-rl');
  });

  it('applies an async identify to the root and to spans started after it resolved', async () => {
    const a = express();
    a.use(
      obsMiddleware({
        identify: async (req) => {
          await sleep(1);
          return { userId: `async-${String(req.headers['x-user'])}`, tags: ['async'] };
        },
      }),
    );
    a.get('/async/:id', async (_req, res) => {
      await sleep(1);
      tracer.startSpan('first').end(); // triggers identify
      await sleep(5);
      tracer.startSpan('second').end();
      res.send('ok');
    });
    const res = await request(a).get('/async/1').set('x-user', 'z');
    const { root, spans } = await traceOf(h, res, 2);
    expect(root.attributes['user.id']).toBe('async-z');
    expect(spans.find((s) => s.name === 'second')!.attributes['user.id']).toBe('async-z');
  });

  it('names the trace after identify traceName and keeps the route as the root span name', async () => {
    const a = express();
    a.use(obsMiddleware({ identify: () => ({ traceName: 'chat-turn', userId: 'u-n' }) }));
    a.get('/named/:id', (_req, res) => {
      tracer.startSpan('child').end();
      res.send('ok');
    });
    const res = await request(a).get('/named/5');
    const { root } = await traceOf(h, res, 1);
    expect(root.attributes['obs.trace.name']).toBe('chat-turn');
    expect(root.name).toBe('GET /named/:id');
    expect(root.attributes['user.id']).toBe('u-n');
  });

  it('keeps identify traceName on a request no route answered, the span named <unmatched>', async () => {
    const a = express();
    a.use(obsMiddleware({ identify: () => ({ traceName: 'chat-turn', userId: 'u-404' }) }));
    const res = await request(a).get('/nowhere/1');
    expect(res.status).toBe(404);
    const { root } = await traceOf(h, res);
    expect(root.name).toBe('GET <unmatched>');
    expect(root.attributes['obs.trace.name']).toBe('chat-turn');
    expect(root.attributes['http.route']).toBeUndefined();
    expect(root.attributes['user.id']).toBe('u-404');
  });

  it('keeps concurrent requests apart', async () => {
    const a = app((a) => {
      a.use(auth);
      a.post('/chat/:id', llmWork);
    });
    const users = ['u-a', 'u-b', 'u-c', 'u-d'];
    const responses = await Promise.all(users.map((u) => request(a).post(`/chat/${u}`).set('x-user', u).set('x-session', `s-${u}`)));
    for (const [i, res] of responses.entries()) {
      const { root, spans } = await traceOf(h, res, 5);
      expectIdentified(root, users[i]!, `s-${users[i]}`);
      const gen = spans.find((s) => s.name === 'llm-call')!;
      expectIdentified(gen, users[i]!, `s-${users[i]}`);
      expect(gen.attributes['obs.observation.input']).toContain(users[i]!);
    }
  });

  it('starts the root under the active context: an incoming traceparent becomes its parent', async () => {
    const a = app((a) => {
      a.get('/traced/:id', (_req, res) => {
        res.send('ok');
      });
    });
    // What @opentelemetry/instrumentation-http does: extract the caller's context and run the request in it.
    const server = createServer((req, res) => {
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      context.with(parent, () => a(req, res));
    });
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const parentId = 'b7ad6b7169203331';
    const res = await request(server).get('/traced/1').set('traceparent', `00-${traceId}-${parentId}-01`);
    expect(res.headers['x-obs-trace-id']).toBe(traceId);
    const { root } = await waitForTrace(h, traceId);
    expect(root.parentSpanId).toBe(parentId);
    expect(root.name).toBe('GET /traced/:id');
  });

  it('never lets identify break the request', async () => {
    const a = express();
    a.use(
      obsMiddleware({
        identify: () => {
          throw new Error('identify bug');
        },
      }),
    );
    a.get('/safe', (_req, res) => {
      tracer.startSpan('child').end();
      res.send('fine');
    });
    const res = await request(a).get('/safe');
    expect(res.text).toBe('fine');
    const { root } = await traceOf(h, res, 1);
    expect(root.attributes['user.id']).toBeUndefined();
    expect(root.name).toBe('GET /safe');
  });
});
