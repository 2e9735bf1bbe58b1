import { get } from 'node:http';
import { Controller, Get, Module, Param, VersioningType } from '@nestjs/common';
import { NestFactory, RouterModule } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { getObsHandle } from '@obs/core';
import { startObsServer, type ObsServer } from '@obs/local-server';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ObsModule, Observe } from '../src/index.js';
import { ChatAppModule, identifyUser } from './fixtures/chat-app.js';
import { createFastifyApp, getJson, only, rootOf, sleep, startObs, type ObsHarness } from './support/harness.js';

@Controller({ path: 'orders', version: '2' })
class OrdersController {
  @Get(':orderId/lines/:lineId')
  line(@Param('orderId') orderId: string, @Param('lineId') lineId: string) {
    return { orderId, lineId };
  }
}

@Controller(['reports', 'stats'])
class ReportsController {
  @Get(['daily/:day', 'today'])
  daily() {
    return { rows: 3 };
  }
}

@Module({ controllers: [ReportsController] })
class ReportsModule {}

@Module({
  imports: [ObsModule.forRoot({}), ReportsModule, RouterModule.register([{ path: 'admin', module: ReportsModule }])],
  controllers: [OrdersController],
})
class VersionedAppModule {}

/**
 * The main scenarios on the Fastify platform: Nest middleware there gets the raw Node.js
 * request and response (through middie), guards and interceptors the FastifyRequest and
 * FastifyReply; both must find the same request observation.
 */
describe('on the Fastify platform', () => {
  let obs: ObsHarness;
  let app: NestFastifyApplication;
  let plain: NestFastifyApplication;
  let versioned: NestFastifyApplication;
  const identifyCalls: { user: unknown; fastifyRequest: boolean }[] = [];

  beforeAll(async () => {
    obs = await startObs();
    app = await createFastifyApp(
      ChatAppModule.with({
        identify: (req) => {
          identifyCalls.push({ user: req.user, fastifyRequest: req.raw !== undefined && req.raw !== req });
          return identifyUser(req);
        },
      }),
      (a) => a.setGlobalPrefix('api'),
    );
    plain = await createFastifyApp(ChatAppModule.with(undefined), (a) => a.setGlobalPrefix('api'));
    versioned = await createFastifyApp(VersionedAppModule, (a) => a.enableVersioning({ type: VersioningType.URI }));
  });
  afterAll(async () => {
    await app.close();
    await plain.close();
    await versioned.close();
    await obs.handle.shutdown();
    await obs.server.close();
  });
  beforeEach(() => {
    obs.server.reset();
    identifyCalls.length = 0;
  });

  /** Status and body of the same request to the app with ObsModule and to the app without. */
  async function both(path: string) {
    const traced = await request(app.getHttpServer()).get(path);
    const untraced = await request(plain.getHttpServer()).get(path);
    return { traced, untraced };
  }

  it('names the root METHOD /prefix/controller/:param, records input and output, sends the trace id header', async () => {
    const res = await request(app.getHttpServer()).get('/api/cats/42?verbose=1').expect(200, { id: '42', name: 'Tom' });
    await obs.handle.flush();
    const root = only(obs.server, 'GET /api/cats/:id');
    expect(root.kind).toBe(2); // SERVER
    expect(root.attributes).toMatchObject({
      'obs.trace.name': 'GET /api/cats/:id',
      'http.request.method': 'GET',
      'http.route': '/api/cats/:id',
      'url.path': '/api/cats/42',
      'http.response.status_code': 200,
      'obs.observation.input': '{"verbose":"1"}',
      'obs.observation.output': '{"id":"42","name":"Tom"}',
    });
    expect(res.headers['x-obs-trace-id']).toBe(root.traceId);
    // One request, one trace: the middleware's observation is the one the interceptor completed.
    expect(obs.server.spans()).toHaveLength(1);
  });

  it('records the parsed JSON body as input, with secrets redacted', async () => {
    await request(app.getHttpServer())
      .post('/api/cats')
      .send({ name: 'Felix', owner: { password: 'hunter2', email: 'a@b.c' } })
      .expect(201, { created: true, name: 'Felix', owner: { password: 'hunter2', email: 'a@b.c' } });
    await obs.handle.flush();
    const root = only(obs.server, 'POST /api/cats');
    expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({
      name: 'Felix',
      owner: { password: '[REDACTED]', email: 'a@b.c' },
    });
    expect(JSON.parse(root.attributes['obs.observation.output'] as string).owner.password).toBe('[REDACTED]');
  });

  it('runs identify once, after the guard, with the FastifyRequest; its attributes reach the @Observe method and the nested generation', async () => {
    const res = await request(app.getHttpServer())
      .post('/api/chat/s-1/messages')
      .set('x-user', 'u-42')
      .set('x-session', 'sess-9')
      .send({ question: 'what is obs?' })
      .expect(201, { answer: 'echo: what is obs?' });
    await obs.handle.flush();

    expect(identifyCalls).toEqual([{ user: { id: 'u-42', session: 'sess-9' }, fastifyRequest: true }]);
    const traceId = res.headers['x-obs-trace-id'] as string;
    const root = rootOf(obs.server, traceId);
    expect(root.name).toBe('POST /api/chat/:sessionId/messages');
    expect(root.attributes['obs.observation.input']).toBe('{"question":"what is obs?"}');
    expect(root.attributes['obs.observation.output']).toBe('{"answer":"echo: what is obs?"}');
    const answer = only(obs.server, 'ChatService.answer');
    const generation = only(obs.server, 'fake-llm');
    expect(answer.traceId).toBe(traceId);
    expect(answer.parentSpanId).toBe(root.spanId);
    expect(generation.parentSpanId).toBe(answer.spanId);
    expect(generation.attributes['obs.observation.model.name']).toBe('fake-model');
    for (const span of [root, answer, generation]) {
      expect(span.attributes, span.name).toMatchObject({
        'user.id': 'u-42',
        'session.id': 'sess-9',
        'obs.trace.tags': ['nest-test'],
      });
    }
    // The guard's own span nests under the request, though the body was parsed after the middleware.
    const audit = only(obs.server, 'AuditService.check');
    expect(audit.traceId).toBe(traceId);
    expect(audit.parentSpanId).toBe(root.spanId);
    expect(obs.server.traceIds()).toEqual([traceId]);
  });

  it('names a request the guard refused after its route, identified as anonymous', async () => {
    await request(app.getHttpServer()).post('/api/chat/s1/messages').send({ question: 'hi' }).expect(401);
    await obs.handle.flush();
    const root = only(obs.server, 'POST /api/chat/:sessionId/messages');
    expect(root.attributes['http.response.status_code']).toBe(401);
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['user.id']).toBeUndefined();
    // Identified (anonymous) at the end, with the FastifyRequest the guard saw.
    expect(identifyCalls).toEqual([{ user: undefined, fastifyRequest: true }]);
  });

  it('keeps concurrent requests apart', async () => {
    const users = ['a', 'b', 'c', 'd', 'e'];
    const responses = await Promise.all(
      users.map((u) =>
        request(app.getHttpServer()).post(`/api/chat/${u}/messages`).set('x-user', u).send({ question: `from ${u}` }).expect(201),
      ),
    );
    await obs.handle.flush();
    for (const [i, res] of responses.entries()) {
      const spans = obs.server.spansByTrace(res.headers['x-obs-trace-id'] as string);
      expect(spans.map((s) => s.name).sort()).toEqual(['AuditService.check', 'ChatService.answer', 'POST /api/chat/:sessionId/messages', 'fake-llm']);
      const generation = spans.find((s) => s.name === 'fake-llm')!;
      expect(generation.attributes['user.id']).toBe(users[i]);
      expect(generation.attributes['obs.observation.input']).toBe(`from ${users[i]}`);
    }
  });

  it('gives captureInput the FastifyRequest and captureOutput the FastifyReply, and name and ignore the raw request', async () => {
    const seen: string[] = [];
    const kind = (x: { raw?: unknown }) => (x.raw !== undefined && x.raw !== x ? 'fastify' : 'raw');
    const custom = await createFastifyApp(
      ChatAppModule.with({
        captureInput: (req) => ({ from: kind(req), id: req.params?.id }),
        captureOutput: (body, res) => ({ from: kind(res), status: res.statusCode, body }),
        // The middleware's req.url is relative to its mount, as on Express: the path is originalUrl.
        name: (req) => (seen.push(`name:${kind(req)}`), `cat ${req.originalUrl}`),
        ignore: (req) => (seen.push(`ignore:${kind(req)}`), false),
      }),
    );
    try {
      await request(custom.getHttpServer()).get('/cats/7').expect(200);
      await obs.handle.flush();
      const root = only(obs.server, 'cat /cats/7');
      expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ from: 'fastify', id: '7' });
      expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({
        from: 'fastify',
        status: 200,
        body: { id: '7', name: 'Tom' },
      });
      expect(seen).toEqual(['ignore:raw', 'name:raw']);
    } finally {
      await custom.close();
    }
  });

  it('includes the URI version and RouterModule path; picks the path that served a multi-path handler', async () => {
    await request(versioned.getHttpServer()).get('/v2/orders/o-9/lines/3').expect(200, { orderId: 'o-9', lineId: '3' });
    await request(versioned.getHttpServer()).get('/admin/stats/daily/monday').expect(200);
    await request(versioned.getHttpServer()).get('/admin/reports/today').expect(200);
    await obs.handle.flush();
    const names = obs.server.traceIds().map((t) => rootOf(obs.server, t).name);
    expect(names).toEqual(['GET /v2/orders/:orderId/lines/:lineId', 'GET /admin/stats/daily/:day', 'GET /admin/reports/today']);
  });

  it('makes no observation for ignored health paths, and names unmatched paths by their path', async () => {
    await request(app.getHttpServer()).get('/api/health').expect(200);
    await request(app.getHttpServer()).get('/api/nowhere').expect(404);
    await obs.handle.flush();
    expect(obs.server.spans().map((s) => s.name)).toEqual(['GET /api/nowhere']);
  });

  it('records what an Observable handler emitted, and the @Observe Observable method under it', async () => {
    await request(app.getHttpServer())
      .get('/api/chat/words?text=one%20two%20three')
      .set('x-user', 'u-1')
      .expect(200, { words: ['one', 'two', 'three'] });
    await obs.handle.flush();
    const root = only(obs.server, 'GET /api/chat/words');
    expect(root.attributes['obs.observation.output']).toBe('{"words":["one","two","three"]}');
    expect(root.attributes['obs.observation.input']).toBe('{"text":"one two three"}');
    const words = only(obs.server, 'words');
    expect(words.parentSpanId).toBe(root.spanId);
    expect(words.attributes['obs.observation.output']).toBe('onetwothree');
    expect(words.attributes['user.id']).toBe('u-1');
  });

  it('an HttpException below 500 is an answer, not an error; the response is what Nest sends without obs', async () => {
    const { traced, untraced } = await both('/api/errors/missing/7');
    expect(traced.status).toBe(404);
    expect(traced.body).toEqual({ statusCode: 404, message: 'no item 7', error: 'Not Found' });
    expect(traced.body).toEqual(untraced.body);
    await obs.handle.flush();
    const root = only(obs.server, 'GET /api/errors/missing/:id');
    expect(root.attributes['http.response.status_code']).toBe(404);
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.status.code).not.toBe(2);
    expect(root.events).toHaveLength(0);
  });

  for (const [path, route, message] of [
    ['/api/errors/crash', 'GET /api/errors/crash', 'database on fire'],
    ['/api/errors/async-crash', 'GET /api/errors/async-crash', 'cannot read the answer'],
    ['/api/errors/observable-crash', 'GET /api/errors/observable-crash', 'stream broke'],
  ] as const) {
    it(`a crash (${path}) is level ERROR with its message; Nest still answers 500 as usual`, async () => {
      const { traced, untraced } = await both(path);
      expect(traced.status).toBe(500);
      expect(traced.body).toEqual({ statusCode: 500, message: 'Internal server error' });
      expect(traced.body).toEqual(untraced.body);
      await obs.handle.flush();
      const root = only(obs.server, route);
      expect(root.attributes).toMatchObject({
        'obs.observation.level': 'ERROR',
        'obs.observation.status_message': message,
        'http.response.status_code': 500,
      });
      expect(root.status).toMatchObject({ code: 2, message });
      expect(root.events.map((e) => e.name)).toContain('exception');
    });
  }

  it("the app's own exception filters still run (on the FastifyReply)", async () => {
    const { traced, untraced } = await both('/api/errors/teapot');
    expect(traced.status).toBe(418);
    expect(traced.body).toEqual({ brewed: false });
    expect(traced.body).toEqual(untraced.body);
    await obs.handle.flush();
    const root = only(obs.server, 'GET /api/errors/teapot');
    expect(root.attributes['http.response.status_code']).toBe(418);
    expect(root.attributes['obs.observation.status_message']).toBe('short and stout');
  });

  it('reassembles the data of @Sse() events, and sends them unchanged', async () => {
    const sse = (target: NestFastifyApplication) =>
      request(target.getHttpServer())
        .get('/api/chat/stream?text=hello%20streaming%20world')
        .set('x-user', 'u-2')
        .buffer(true)
        .parse((r, done) => {
          let text = '';
          r.on('data', (c: Buffer) => (text += c.toString()));
          r.on('end', () => done(null, text));
        })
        .expect(200);
    const res = await sse(app);
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    expect(res.headers['x-obs-trace-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body).toContain('data: hello\n');
    expect(res.body).toBe((await sse(plain)).body);
    await obs.handle.flush();
    const root = only(obs.server, 'GET /api/chat/stream');
    expect(root.traceId).toBe(res.headers['x-obs-trace-id']);
    expect(root.attributes['obs.observation.output']).toBe('hello streaming world');
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['user.id']).toBe('u-2');
  });

  it('records the text of a StreamableFile as it streams, and describes a binary one', async () => {
    const text = await request(app.getHttpServer()).get('/api/files/notes.txt').expect(200);
    expect(text.text).toBe('line one\nline two\n');
    const binary = await request(app.getHttpServer()).get('/api/files/logo').expect(200);
    expect(binary.body).toHaveLength(2048);
    await obs.handle.flush();
    expect(only(obs.server, 'GET /api/files/notes.txt').attributes['obs.observation.output']).toBe('line one\nline two\n');
    expect(only(obs.server, 'GET /api/files/logo').attributes['obs.observation.output']).toBe(
      '[file image/png, 2048 bytes, inline; filename="logo.png"]',
    );
  });

  it('marks an SSE stream the client left as cancelled, and unsubscribes the @Observe Observable', async () => {
    await app.listen(0, '127.0.0.1');
    const url = `${await app.getUrl()}/api/chat/stream?text=${encodeURIComponent('w '.repeat(500))}`;
    await new Promise<void>((resolve, reject) => {
      const req = get(url.replace('[::1]', '127.0.0.1'), { agent: false, headers: { 'x-user': 'u-3' } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
    const root = await obs.server.waitFor(() => obs.server.spansByName('GET /api/chat/stream')[0]);
    expect(root.attributes).toMatchObject({
      'obs.observation.level': 'WARNING',
      'obs.observation.metadata.cancelled': true,
    });
    expect(root.attributes['obs.observation.output']).toMatch(/^w/);
    const words = await obs.server.waitFor(() => obs.server.spansByName('words')[0]);
    expect(words.attributes['obs.observation.metadata.cancelled']).toBe(true);
  });
});

class Work {
  @Observe()
  async step(n: number): Promise<number> {
    await sleep(n);
    return n;
  }
}

@Controller('jobs')
class JobsController {
  private readonly work = new Work();

  @Get(':ms')
  async run(@Param('ms') ms: string) {
    return { done: await this.work.step(Number(ms)) };
  }
}

describe('on the Fastify platform, application shutdown', () => {
  let server: ObsServer;

  beforeAll(async () => {
    server = await startObsServer({ quiet: true });
  });
  afterAll(async () => {
    await server.close();
  });

  it('app.close() flushes every accepted span, including a request in flight, and shuts down the obs it started', async () => {
    // The suite above shut its obs down: the module initialises its own.
    expect(getObsHandle()).toBeUndefined();
    @Module({
      imports: [
        ObsModule.forRoot({
          // A long interval and a large batch, so only the shutdown flush can have sent the spans.
          obs: { baseUrl: server.url, publicKey: server.publicKey, secretKey: server.secretKey, flushInterval: 600, flushAt: 1000, flushOnExit: false },
        }),
      ],
      controllers: [JobsController],
    })
    class ShutdownAppModule {}

    const app = await NestFactory.create<NestFastifyApplication>(ShutdownAppModule, new FastifyAdapter(), { logger: false });
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    expect(getObsHandle()).toBeDefined();

    for (const ms of [1, 2, 3]) expect(await getJson(`${base}/jobs/${ms}`)).toEqual({ done: ms });
    const inFlight = getJson(`${base}/jobs/300`);
    await sleep(50);
    expect(server.spans()).toHaveLength(0);

    await app.close();
    expect(await inFlight).toEqual({ done: 300 });
    const roots = server.spansByName('GET /jobs/:ms');
    expect(roots.map((s) => s.attributes['url.path']).sort()).toEqual(['/jobs/1', '/jobs/2', '/jobs/3', '/jobs/300']);
    const steps = server.spansByName('Work.step');
    expect(steps).toHaveLength(4);
    // Each step nests under its request's root.
    for (const step of steps) expect(roots.find((r) => r.spanId === step.parentSpanId)?.traceId).toBe(step.traceId);
    expect(getObsHandle()).toBeUndefined();
  });
});
