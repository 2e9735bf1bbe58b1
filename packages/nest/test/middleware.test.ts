import { Controller, Injectable, Module, Post, type MiddlewareConsumer, type NestMiddleware, type NestModule } from '@nestjs/common';
import { startActiveObservation } from '@obs/core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObsModule } from '../src/index.js';
import { only, platforms, rootOf, initTestObs, setupObsServer } from './support/harness.js';

const obs = setupObsServer({ init: initTestObs });

/** A module's own middleware that traces what it does, as an auth or rate-limit middleware might. */
@Injectable()
class RateLimitMiddleware implements NestMiddleware {
  use(_req: unknown, _res: unknown, next: () => void): void {
    startActiveObservation('rate-limit', (o) => {
      o.update({ output: 'allowed' });
    });
    next();
  }
}

@Controller('quota')
class QuotaController {
  @Post()
  check(): { ok: true } {
    return { ok: true };
  }
}

// The app's own module applies a middleware, as an app's auth or rate limit does.
@Module({ imports: [ObsModule.forRoot()], controllers: [QuotaController] })
class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RateLimitMiddleware).forRoutes('{*path}');
  }
}

describe.each(platforms)("the app's own middleware ($name)", (platform) => {
  let app: Awaited<ReturnType<typeof platform.createApp>>;
  beforeAll(async () => {
    app = await platform.createApp(AppModule);
  });
  afterAll(async () => {
    await app.close();
  });

  it("one trace per request: a traced middleware of the app's own module nests under the root, nothing outside it", async () => {
    obs.server.reset();
    const res = await request(app.getHttpServer()).post('/quota').send({}).expect(201, { ok: true });
    await obs.handle.flush();
    const traceId = res.headers['x-obs-trace-id'] as string;
    const root = rootOf(obs.server, traceId);
    expect(root.name).toBe('POST /quota');
    const limit = only(obs.server, 'rate-limit');
    expect(limit.attributes['obs.observation.output']).toBe('allowed');
    expect(limit.traceId).toBe(traceId);
    expect(limit.parentSpanId).toBe(root.spanId);
    expect(obs.server.spans().length).toBe(2);
  });

  // Nest's route-bound middleware costs a wildcard match, a WeakSet entry and an exception proxy
  // per request: on Express obs mounts its start on the app itself, once, ahead of Nest's.
  if (platform.name !== 'express') return;
  it('on Express, starts requests from one function mounted on the app, not through Nest', () => {
    const stack = (app.getHttpAdapter().getInstance() as { router: { stack: { name: string }[] } }).router.stack;
    const names = stack.map((layer) => layer.name);
    expect(names.filter((n) => n === 'obsNestMiddleware')).toHaveLength(1);
    // Ahead of every middleware Nest mounts for modules (its layers are named `handler`).
    expect(names.indexOf('obsNestMiddleware')).toBeLessThan(names.indexOf('handler'));
  });
});

describe('with a global prefix (express)', () => {
  let app: Awaited<ReturnType<(typeof platforms)[0]['createApp']>>;
  beforeAll(async () => {
    app = await platforms.find((p) => p.name === 'express')!.createApp(AppModule, (a) => a.setGlobalPrefix('api'));
  });
  afterAll(async () => {
    await app.close();
  });

  it("keeps Nest's middleware, which knows the prefix: paths outside it make no observation", async () => {
    obs.server.reset();
    const stack = (app.getHttpAdapter().getInstance() as { router: { stack: { name: string }[] } }).router.stack;
    expect(stack.map((layer) => layer.name)).not.toContain('obsNestMiddleware');
    const res = await request(app.getHttpServer()).post('/api/quota').send({}).expect(201, { ok: true });
    await request(app.getHttpServer()).post('/quota').send({}).expect(404);
    await obs.handle.flush();
    expect(rootOf(obs.server, res.headers['x-obs-trace-id'] as string).name).toBe('POST /api/quota');
    expect(obs.server.spansByName(/quota/).length).toBe(1);
  });
});
