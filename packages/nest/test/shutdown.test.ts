import { Controller, Get, Module, Param } from '@nestjs/common';
import { getObsHandle } from '@obs/core';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { ObsModule, Observe } from '../src/index.js';
import { getJson, platforms, sleep, urlOf } from './support/harness.js';

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

const local = setupObsServer();

describe.each(platforms)('application shutdown ($name)', (platform) => {
  it('app.close() flushes every accepted span, including a request in flight, and shuts down the obs it started', async () => {
    // Nothing has started obs (each app here shuts down the obs it started).
    expect(getObsHandle()).toBeUndefined();
    @Module({
      imports: [
        ObsModule.forRoot({
          // No initObs before: the module initialises obs. A long interval and a large batch, so
          // only the shutdown flush can have sent the spans.
          obs: {
            baseUrl: local.server.url,
            publicKey: local.server.publicKey,
            secretKey: local.server.secretKey,
            flushInterval: 600,
            flushAt: 1000,
            flushOnExit: false,
          },
        }),
      ],
      controllers: [JobsController],
    })
    class ShutdownAppModule {}

    const app = await platform.createRealApp(ShutdownAppModule);
    await app.listen(0, '127.0.0.1');
    const base = await urlOf(app);
    expect(getObsHandle()).toBeDefined();

    for (const ms of [1, 2, 3]) expect(await getJson(`${base}/jobs/${ms}`)).toEqual({ done: ms });
    const inFlight = getJson(`${base}/jobs/300`);
    await sleep(50);
    expect(local.server.spans()).toHaveLength(0);

    await app.close();
    expect(await inFlight).toEqual({ done: 300 });
    const roots = local.server.spansByName('GET /jobs/:ms');
    expect(roots.map((s) => s.attributes['url.path']).sort()).toEqual(['/jobs/1', '/jobs/2', '/jobs/3', '/jobs/300']);
    const steps = local.server.spansByName('Work.step');
    expect(steps).toHaveLength(4);
    // Each step nests under its request's root.
    for (const step of steps) expect(roots.find((r) => r.spanId === step.parentSpanId)?.traceId).toBe(step.traceId);
    // The module owned obs, so it shut it down.
    expect(getObsHandle()).toBeUndefined();
  });

  it('two apps sharing the obs an ObsModule started: the first to close only flushes, the last shuts it down', async () => {
    const obs = {
      baseUrl: local.server.url,
      publicKey: local.server.publicKey,
      secretKey: local.server.secretKey,
      flushInterval: 600,
      flushOnExit: false,
    };
    const make = async () => {
      @Module({ imports: [ObsModule.forRoot({ obs })], controllers: [JobsController] })
      class SharedAppModule {}
      const app = await platform.createRealApp(SharedAppModule);
      await app.listen(0, '127.0.0.1');
      return { app, base: await urlOf(app) };
    };
    const first = await make();
    const second = await make();
    const handle = getObsHandle();
    expect(handle).toBeDefined();

    await getJson(`${first.base}/jobs/1`);
    await first.app.close();
    expect(local.server.spansByName('GET /jobs/:ms')).toHaveLength(1);
    expect(getObsHandle()).toBe(handle);

    await getJson(`${second.base}/jobs/2`);
    await second.app.close();
    expect(local.server.spansByName('GET /jobs/:ms').map((s) => s.attributes['url.path'])).toEqual(['/jobs/1', '/jobs/2']);
    expect(getObsHandle()).toBeUndefined();
  });
});
