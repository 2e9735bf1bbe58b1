/**
 * Requests injected in-process (light-my-request, Fastify's injector): its socket keeps what is
 * written, so `writableFinished` stays false when the response closes. A response the app ended
 * is complete, not cancelled. Its own file: light-my-request changes the request prototype Express
 * shares between apps, so real HTTP requests in the same module would break.
 */
import { inject } from 'light-my-request';
import { describe, expect, it } from 'vitest';
import { obsMiddleware } from '../src/index.js';
import { EXPRESS_VERSIONS, initTestObs, setupObsServer, traceOf } from './harness.js';

const h = setupObsServer({ init: initTestObs });

describe.each(EXPRESS_VERSIONS)('injected requests on $name', ({ express }) => {
  it('a response the app ended is complete, with its status and output', async () => {
    const app = express();
    app.use(obsMiddleware());
    app.use(express.json());
    app.post('/chat/:id', (req, res) => {
      res.json({ answer: req.params.id });
    });
    const res = await inject(app, { method: 'POST', url: '/chat/42', payload: { message: 'hi' } });
    expect(res.json()).toEqual({ answer: '42' });
    const { root } = await traceOf(h, res);
    expect(root.name).toBe('POST /chat/:id');
    expect(root.attributes['obs.observation.metadata.cancelled']).toBeUndefined();
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['http.response.status_code']).toBe(200);
    expect(root.attributes['obs.observation.input']).toBe('{"message":"hi"}');
    expect(root.attributes['obs.observation.output']).toBe('{"answer":"42"}');
  });
});
