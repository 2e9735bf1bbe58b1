import { Controller, Get, Module, Param, VersioningType, type INestApplication } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObsModule } from '../src/index.js';
import { ChatAppModule } from './fixtures/chat-app.js';
import { only, platforms, rootOf, initTestObs, setupObsServer } from './support/harness.js';

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

const obs = setupObsServer({ init: initTestObs });

describe.each(platforms)('request root observation naming ($name)', (platform) => {
  let app: INestApplication;
  let versioned: INestApplication;
  let excluding: INestApplication;

  beforeAll(async () => {
    app = await platform.createApp(ChatAppModule.with({}), (a) => a.setGlobalPrefix('api'));
    versioned = await platform.createApp(VersionedAppModule, (a) => a.enableVersioning({ type: VersioningType.URI }));
    excluding = await platform.createApp(ChatAppModule.with({}), (a) => a.setGlobalPrefix('api', { exclude: ['cats/:id'] }));
  });
  afterAll(async () => {
    await app.close();
    await versioned.close();
    await excluding.close();
  });

  it('names the root METHOD /prefix/controller/route/:param from route metadata, with HTTP attributes', async () => {
    const res = await request(app.getHttpServer()).get('/api/cats/42?verbose=1').expect(200, { id: '42', name: 'Tom' });
    await obs.handle.flush();
    const root = only(obs.server, 'GET /api/cats/:id');
    expect(root.kind).toBe(2); // SERVER
    expect(root.attributes).toMatchObject({
      'obs.observation.type': 'span',
      'obs.trace.name': 'GET /api/cats/:id',
      'http.request.method': 'GET',
      'http.route': '/api/cats/:id',
      'url.path': '/api/cats/42',
      'http.response.status_code': 200,
      'obs.observation.input': '{"verbose":"1"}',
      'obs.observation.output': '{"id":"42","name":"Tom"}',
    });
    expect(res.headers['x-obs-trace-id']).toBe(root.traceId);
    expect(root.scope.name).toBe('obs-sdk');
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

  it('names a request a guard refused after its route, too', async () => {
    await request(app.getHttpServer()).post('/api/chat/s1/messages').send({ question: 'hi' }).expect(401);
    await obs.handle.flush();
    const root = only(obs.server, 'POST /api/chat/:sessionId/messages');
    expect(root.attributes['http.response.status_code']).toBe(401);
    expect(root.attributes['obs.observation.level']).toBeUndefined();
  });

  it('makes no observation for ignored health paths, and names unmatched paths by their path', async () => {
    await request(app.getHttpServer()).get('/api/health').expect(200);
    await request(app.getHttpServer()).get('/api/nowhere').expect(404);
    await obs.handle.flush();
    const names = obs.server.spans().map((s) => s.name);
    expect(names).toEqual(['GET /api/nowhere']);
  });

  it('includes the URI version and RouterModule path; picks the path that served a multi-path handler', async () => {
    await request(versioned.getHttpServer()).get('/v2/orders/o-9/lines/3').expect(200, { orderId: 'o-9', lineId: '3' });
    await request(versioned.getHttpServer()).get('/admin/stats/daily/monday').expect(200);
    await request(versioned.getHttpServer()).get('/admin/reports/today').expect(200);
    await obs.handle.flush();
    const names = obs.server.traceIds().map((t) => rootOf(obs.server, t).name);
    expect(names).toEqual(['GET /v2/orders/:orderId/lines/:lineId', 'GET /admin/stats/daily/:day', 'GET /admin/reports/today']);
  });

  it('leaves out the global prefix for routes excluded from it', async () => {
    await request(excluding.getHttpServer()).get('/cats/5').expect(200);
    await request(excluding.getHttpServer()).post('/api/cats').send({}).expect(201);
    await obs.handle.flush();
    const names = obs.server.traceIds().map((t) => rootOf(obs.server, t).name);
    expect(names).toEqual(['GET /cats/:id', 'POST /api/cats']);
  });
});
