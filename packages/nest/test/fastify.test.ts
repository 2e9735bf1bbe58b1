import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChatAppModule, identifyUser } from './fixtures/chat-app.js';
import { createFastifyApp, only, initTestObs, setupObsServer } from './support/harness.js';

/**
 * What is particular to the Fastify platform (the shared scenarios run on it too: see
 * `platforms` in support/harness.ts): Nest middleware there gets the raw Node.js request and
 * response (through middie), guards and interceptors the FastifyRequest and FastifyReply; each
 * callback must get the object its platform documents, and all must find the same observation.
 */
describe('on the Fastify platform', () => {
  const obs = setupObsServer({ init: initTestObs });
  let app: NestFastifyApplication;
  const identifyCalls: { user: unknown; fastifyRequest: boolean }[] = [];
  const kind = (x: { raw?: unknown }) => (x.raw !== undefined && x.raw !== x ? 'fastify' : 'raw');

  beforeAll(async () => {
    app = await createFastifyApp(
      ChatAppModule.with({
        identify: (req) => {
          identifyCalls.push({ user: req.user, fastifyRequest: kind(req) === 'fastify' });
          return identifyUser(req);
        },
      }),
      (a) => a.setGlobalPrefix('api'),
    );
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(() => {
    identifyCalls.length = 0;
  });

  it('runs identify once, after the guard, with the FastifyRequest', async () => {
    const res = await request(app.getHttpServer())
      .post('/api/chat/s-1/messages')
      .set('x-user', 'u-42')
      .set('x-session', 'sess-9')
      .send({ question: 'what is obs?' })
      .expect(201);
    expect(identifyCalls).toEqual([{ user: { id: 'u-42', session: 'sess-9' }, fastifyRequest: true }]);
    await obs.handle.flush();
    expect(obs.server.traceIds()).toEqual([res.headers['x-obs-trace-id']]);
  });

  it('links a request the guard refused through onRequest: identified (anonymous) with the FastifyRequest the guard saw', async () => {
    await request(app.getHttpServer()).post('/api/chat/s1/messages').send({ question: 'hi' }).expect(401);
    expect(identifyCalls).toEqual([{ user: undefined, fastifyRequest: true }]);
    await obs.handle.flush();
    const refused = only(obs.server, 'POST /api/chat/:sessionId/messages');
    expect(refused.attributes['user.id']).toBeUndefined();
  });

  it('gives captureInput the FastifyRequest and captureOutput the FastifyReply, and name and ignore the raw request', async () => {
    const seen: string[] = [];
    const custom = await createFastifyApp(
      ChatAppModule.with({
        captureInput: (req) => ({ from: kind(req), id: req.params?.id }),
        captureOutput: (body, res) => ({ from: kind(res), status: res.statusCode, body }),
        // The middleware's req.url is relative to its mount, as on Express: the path is originalUrl.
        name: (req) => {
          seen.push(`name:${kind(req)}`);
          return `cat ${req.originalUrl}`;
        },
        ignore: (req) => {
          seen.push(`ignore:${kind(req)}`);
          return false;
        },
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
});
