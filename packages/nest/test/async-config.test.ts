import { Controller, Get, Injectable, Module, Req, type INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObsModule, ObsService } from '../src/index.js';
import { createApp, only, initTestObs, setupObsServer } from './support/harness.js';

/** A config service as `@nestjs/config` would give, in its own module. */
@Injectable()
class AppConfigService {
  private readonly values: Record<string, string> = { OBS_TRACE_HEADER: 'x-trace', TENANT: 'acme', RELEASE: '2026.11' };
  get(key: string): string {
    const value = this.values[key];
    if (value === undefined) throw new Error(`missing config ${key}`);
    return value;
  }
}

@Module({ providers: [AppConfigService], exports: [AppConfigService] })
class AppConfigModule {}

@Controller('me')
class MeController {
  constructor(private readonly obs: ObsService) {}

  @Get()
  me(@Req() req: { headers: Record<string, string> }) {
    return { user: req.headers['x-user'], flushable: typeof this.obs.flush === 'function' };
  }

  @Get('secret-stuff')
  secret() {
    return { never: 'recorded' };
  }
}

@Module({
  imports: [
    ObsModule.forRootAsync({
      imports: [AppConfigModule],
      inject: [AppConfigService],
      useFactory: async (config: AppConfigService) => ({
        traceIdHeader: config.get('OBS_TRACE_HEADER'),
        ignore: [/\/secret-stuff$/],
        identify: (req: { headers: Record<string, string> }) => ({
          userId: req.headers['x-user'],
          metadata: { tenant: config.get('TENANT') },
          version: config.get('RELEASE'),
        }),
      }),
    }),
  ],
  controllers: [MeController],
})
class AsyncAppModule {}

const obs = setupObsServer({ init: initTestObs });
let app: INestApplication;

beforeAll(async () => {
  app = await createApp(AsyncAppModule);
});
afterAll(async () => {
  await app.close();
});

describe('ObsModule.forRootAsync', () => {
  it('takes its options from a factory with a config service of an imported module', async () => {
    const res = await request(app.getHttpServer()).get('/me').set('x-user', 'u-3').expect(200, { user: 'u-3', flushable: true });
    expect(res.headers['x-obs-trace-id']).toBeUndefined();
    await request(app.getHttpServer()).get('/me/secret-stuff').expect(200);
    await obs.handle.flush();
    const root = only(obs.server, 'GET /me');
    expect(res.headers['x-trace']).toBe(root.traceId);
    expect(root.attributes).toMatchObject({ 'user.id': 'u-3', 'obs.trace.metadata.tenant': 'acme', 'obs.version': '2026.11' });
    expect(obs.server.spans()).toHaveLength(1);
  });

  it('gives ObsService the process handle: its client scores the trace, its flush sends them', async () => {
    const service = app.get(ObsService);
    const res = await request(app.getHttpServer()).get('/me').set('x-user', 'u-4').expect(200);
    const traceId = res.headers['x-trace'] as string;
    service.client.score.trace({ traceId }, { name: 'helpful', value: 1 });
    await service.flush();
    expect(obs.server.spansByTrace(traceId)).toHaveLength(1);
    expect(obs.server.scores.map((s) => [s.traceId, s.name, s.value])).toEqual([[traceId, 'helpful', 1]]);
  });
});
