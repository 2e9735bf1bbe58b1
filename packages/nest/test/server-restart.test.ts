/**
 * A restart of the obs server (its port closed for 3 s) under a steady load on a real Nest app
 * (`NestFactory`, listening): every request's trace arrives, counted by the path each request
 * made unique, once the app closes (its shutdown flush delivers what the outage held back).
 */
import { Controller, Get, Module, Param } from '@nestjs/common';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { ObsModule, Observe } from '../src/index.js';
import { getJson, platforms, sleep, urlOf } from './support/harness.js';

class Work {
  @Observe()
  async step(n: number): Promise<number> {
    return n;
  }
}

@Controller('load')
class LoadController {
  private readonly work = new Work();

  @Get(':n')
  async run(@Param('n') n: string) {
    return { n: await this.work.step(Number(n)) };
  }
}

const local = setupObsServer();
const REQUESTS = 100;

describe('an obs server restart under load', () => {
  it(`loses no request trace: ${REQUESTS} requests over 5 s, the server down for 3 s from the first second`, async () => {
    @Module({
      imports: [
        ObsModule.forRoot({
          obs: {
            baseUrl: local.server.url,
            publicKey: local.server.publicKey,
            secretKey: local.server.secretKey,
            flushInterval: 0.1,
            flushOnExit: false,
          },
        }),
      ],
      controllers: [LoadController],
    })
    class RestartAppModule {}

    const app = await platforms[0]!.createRealApp(RestartAppModule);
    await app.listen(0, '127.0.0.1');
    const base = await urlOf(app);
    const requests: Promise<unknown>[] = [];
    let restart: Promise<void> | undefined;
    for (let i = 0; i < REQUESTS; i++) {
      if (i === 20) restart = local.server.restart(3000);
      requests.push(getJson(`${base}/load/${i}`));
      await sleep(50);
    }
    expect(await Promise.all(requests)).toEqual(Array.from({ length: REQUESTS }, (_, n) => ({ n })));
    await restart;
    // The module started obs, so closing the app shuts it down: a flush within shutdownTimeout.
    await app.close();
    const paths = new Set(local.server.spansByName('GET /load/:n').map((s) => s.attributes['url.path']));
    const missing = Array.from({ length: REQUESTS }, (_, n) => `/load/${n}`).filter((p) => !paths.has(p));
    console.log(`[nest] restart under load: ${REQUESTS - missing.length} of ${REQUESTS} request traces arrived`);
    expect(missing).toEqual([]);
    expect(new Set(local.server.spansByName('Work.step').map((s) => s.traceId)).size).toBe(REQUESTS);
  }, 60_000);
});
