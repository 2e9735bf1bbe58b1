import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatAppModule } from './fixtures/chat-app.js';
import { only, platforms, initTestObs, setupObsServer } from './support/harness.js';

const obs = setupObsServer({ init: initTestObs });

describe.each(platforms)('exceptions ($name)', (platform) => {
  let app: INestApplication;
  let plain: INestApplication;

  beforeAll(async () => {
    app = await platform.createApp(ChatAppModule.with({}));
    plain = await platform.createApp(ChatAppModule.with(undefined));
  });
  afterAll(async () => {
    await app.close();
    await plain.close();
  });

  /** Status and body of the same request to the app with ObsModule and to the app without. */
  async function both(path: string) {
    const traced = await request(app.getHttpServer()).get(path);
    const untraced = await request(plain.getHttpServer()).get(path);
    return { traced, untraced };
  }

  it('an HttpException below 500 is an answer, not an error; the response is what Nest sends without obs', async () => {
    const { traced, untraced } = await both('/errors/missing/7');
    expect(traced.status).toBe(404);
    expect(traced.body).toEqual({ statusCode: 404, message: 'no item 7', error: 'Not Found' });
    expect(traced.body).toEqual(untraced.body);
    await obs.handle.flush();
    const root = only(obs.server, 'GET /errors/missing/:id');
    expect(root.attributes['http.response.status_code']).toBe(404);
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    // The rule every adapter shares: a 4xx answer keeps the level and carries the message.
    expect(root.attributes['obs.observation.status_message']).toBe('no item 7');
    expect(root.status.code).not.toBe(2);
    expect(root.events).toHaveLength(0);
  });

  for (const [path, route, message] of [
    ['/errors/crash', 'GET /errors/crash', 'database on fire'],
    ['/errors/async-crash', 'GET /errors/async-crash', 'cannot read the answer'],
    ['/errors/observable-crash', 'GET /errors/observable-crash', 'stream broke'],
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

  it('an HttpException of 500 or more is an error with its message', async () => {
    const { traced, untraced } = await both('/errors/bad-gateway');
    expect(traced.status).toBe(502);
    expect(traced.body).toEqual(untraced.body);
    await obs.handle.flush();
    const root = only(obs.server, 'GET /errors/bad-gateway');
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    expect(root.attributes['obs.observation.status_message']).toBe('upstream model timed out');
  });

  it("the app's own exception filters still run", async () => {
    const { traced, untraced } = await both('/errors/teapot');
    expect(traced.status).toBe(418);
    expect(traced.body).toEqual({ brewed: false });
    expect(traced.body).toEqual(untraced.body);
    await obs.handle.flush();
    const root = only(obs.server, 'GET /errors/teapot');
    expect(root.attributes['http.response.status_code']).toBe(418);
    // Not an HttpException: the app threw, even though a filter made a 4xx of it.
    expect(root.attributes['obs.observation.status_message']).toBe('short and stout');
  });
});
