import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChatAppModule, identifyUser } from './fixtures/chat-app.js';
import { only, platforms, rootOf, sleep, initTestObs, setupObsServer } from './support/harness.js';

const obs = setupObsServer({ init: initTestObs });
const identifyCalls: unknown[] = [];
beforeEach(() => {
  identifyCalls.length = 0;
});

describe.each(platforms)('identify runs after guards and reaches every span of the request ($name)', (platform) => {
  let app: INestApplication;
  let asyncApp: INestApplication;

  beforeAll(async () => {
    app = await platform.createApp(
      ChatAppModule.with({
        identify: (req) => {
          identifyCalls.push(req.user);
          return identifyUser(req);
        },
      }),
    );
    asyncApp = await platform.createApp(
      ChatAppModule.with({
        identify: async (req) => {
          await sleep(5); // e.g. a lookup of the user's plan
          return { ...identifyUser(req), metadata: { plan: 'pro' } };
        },
      }),
    );
  });
  afterAll(async () => {
    await app.close();
    await asyncApp.close();
  });

  it('sees req.user set by the guard, once, and its attributes reach the @Observe method and the nested generation', async () => {
    const res = await request(app.getHttpServer())
      .post('/chat/s-1/messages')
      .set('x-user', 'u-42')
      .set('x-session', 'sess-9')
      .send({ question: 'what is obs?' })
      .expect(201, { answer: 'echo: what is obs?' });
    await obs.handle.flush();

    // Only after the guard: never with req.user undefined, even though the guard started a span.
    expect(identifyCalls).toEqual([{ id: 'u-42', session: 'sess-9' }]);

    const traceId = res.headers['x-obs-trace-id'] as string;
    const root = rootOf(obs.server, traceId);
    expect(root.name).toBe('POST /chat/:sessionId/messages');
    expect(root.attributes['obs.observation.input']).toBe('{"question":"what is obs?"}');
    expect(root.attributes['obs.observation.output']).toBe('{"answer":"echo: what is obs?"}');
    const answer = only(obs.server, 'ChatService.answer');
    const generation = only(obs.server, 'fake-llm');
    // Nesting: root > ChatService.answer > fake-llm, all in the request's trace.
    expect(answer.traceId).toBe(traceId);
    expect(answer.parentSpanId).toBe(root.spanId);
    expect(generation.parentSpanId).toBe(answer.spanId);
    expect(generation.attributes['obs.observation.type']).toBe('generation');
    expect(generation.attributes['obs.observation.model.name']).toBe('fake-model');
    expect(answer.attributes['obs.observation.input']).toBe('what is obs?');
    expect(answer.attributes['obs.observation.output']).toBe('echo: what is obs?');

    for (const span of [root, answer, generation]) {
      expect(span.attributes, span.name).toMatchObject({
        'user.id': 'u-42',
        'session.id': 'sess-9',
        'obs.trace.tags': ['nest-test'],
      });
    }
    // The guard's own span ran inside the request, before authentication finished.
    const audit = only(obs.server, 'AuditService.check');
    expect(audit.traceId).toBe(traceId);
    expect(audit.parentSpanId).toBe(root.spanId);
    expect(obs.server.traceIds()).toEqual([traceId]);
  });

  it('waits for an async identify before the handler runs', async () => {
    const res = await request(asyncApp.getHttpServer()).post('/chat/s-2/messages').set('x-user', 'u-7').send({ question: 'q' }).expect(201);
    await obs.handle.flush();
    const traceId = res.headers['x-obs-trace-id'] as string;
    const spans = obs.server.spansByTrace(traceId);
    expect(spans.map((s) => s.name).sort()).toEqual([
      'AuditService.check',
      'ChatService.answer',
      'POST /chat/:sessionId/messages',
      'fake-llm',
    ]);
    for (const span of spans.filter((s) => s.name !== 'AuditService.check')) {
      expect(span.attributes['user.id'], span.name).toBe('u-7');
      expect(span.attributes['obs.trace.metadata.plan'], span.name).toBe('pro');
    }
  });

  it('identifies a request the guard refused as anonymous, without failing it', async () => {
    await request(app.getHttpServer()).get('/chat/words?text=a').expect(401);
    await obs.handle.flush();
    const root = only(obs.server, 'GET /chat/words');
    expect(identifyCalls).toEqual([undefined]);
    expect(root.attributes['user.id']).toBeUndefined();
  });

  it('keeps concurrent requests apart, with a sync and with an async identify', async () => {
    const users = ['a', 'b', 'c', 'd', 'e'];
    for (const target of [app, asyncApp]) {
      obs.server.reset();
      const responses = await Promise.all(
        users.map((u) =>
          request(target.getHttpServer())
            .post(`/chat/${u}/messages`)
            .set('x-user', u)
            .send({ question: `from ${u}` })
            .expect(201),
        ),
      );
      await obs.handle.flush();
      for (const [i, res] of responses.entries()) {
        const spans = obs.server.spansByTrace(res.headers['x-obs-trace-id'] as string);
        expect(spans.map((s) => s.name).sort()).toEqual([
          'AuditService.check',
          'ChatService.answer',
          'POST /chat/:sessionId/messages',
          'fake-llm',
        ]);
        const generation = spans.find((s) => s.name === 'fake-llm')!;
        expect(generation.attributes['user.id']).toBe(users[i]);
        expect(generation.attributes['obs.observation.input']).toBe(`from ${users[i]}`);
      }
    }
  });
});
