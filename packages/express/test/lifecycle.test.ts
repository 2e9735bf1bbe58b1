/**
 * ignore defaults and options, the trace id response header, and client aborts ending the
 * root observation as cancelled.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { getRequestObservation, obsMiddleware, type ObsExpressOptions } from '../src/index.js';
import { EXPRESS_VERSIONS, rootNames, traceOf, initTestObs, setupObsServer, waitForTrace, type Express } from './harness.js';

const h = setupObsServer({ init: initTestObs });

function buildApp(express: Express, options?: ObsExpressOptions) {
  const app = express();
  app.use(obsMiddleware(options));
  app.get('/health', (_req, res) => {
    res.send('ok');
  });
  app.get('/readyz', (_req, res) => {
    res.send('ok');
  });
  app.get('/assets/app.js', (_req, res) => {
    res.type('application/javascript').send('console.log(1)');
  });
  app.options('/chat', (_req, res) => {
    res.sendStatus(204);
  });
  app.get('/chat', (_req, res) => {
    res.send('chat');
  });
  app.get('/internal/:x', (_req, res) => {
    res.send('internal');
  });
  return app;
}

/** Sends requests that must make no root, then one that must: only that one is on the server. */
async function expectOnlyMarker(app: ReturnType<Express>, ignored: Array<[string, string]>) {
  for (const [method, path] of ignored) {
    const res = await request(app)[method as 'get'](path);
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    expect(res.headers['x-obs-trace-id'], `${method} ${path} has no trace`).toBeUndefined();
  }
  const res = await request(app).get('/chat');
  await traceOf(h, res);
  expect(rootNames(h)).toEqual(['GET /chat']);
}

describe.each(EXPRESS_VERSIONS)('ignore, trace id header and aborts on $name', ({ express }) => {
  it('ignores health checks, OPTIONS and static assets by default', async () => {
    await expectOnlyMarker(buildApp(express), [
      ['get', '/health'],
      ['get', '/readyz'],
      ['get', '/assets/app.js'],
      ['options', '/chat'],
    ]);
  });

  it('takes ignore paths, patterns and predicates', async () => {
    await expectOnlyMarker(buildApp(express, { ignore: ['/health', /^\/internal\//] }), [
      ['get', '/health'],
      ['get', '/internal/1'],
    ]);
    h.server.reset();
    await expectOnlyMarker(buildApp(express, { ignore: (req) => req.headers['x-synthetic'] === '1' || req.path.startsWith('/internal') }), [
      ['get', '/internal/2'],
    ]);
    // Replacing the defaults: /health is observed now.
    h.server.reset();
    const res = await request(buildApp(express, { ignore: [/^\/internal\//] })).get('/health');
    const { root } = await traceOf(h, res);
    expect(root.name).toBe('GET /health');
  });

  it('returns the trace id in x-obs-trace-id by default, a custom header, or none', async () => {
    const res = await request(buildApp(express)).get('/chat');
    const { root } = await traceOf(h, res);
    expect(res.headers['x-obs-trace-id']).toBe(root.traceId);

    const custom = await request(buildApp(express, { traceIdHeader: 'x-trace' })).get('/chat');
    expect(custom.headers['x-trace']).toMatch(/^[0-9a-f]{32}$/);
    expect(custom.headers['x-obs-trace-id']).toBeUndefined();
    await waitForTrace(h, custom.headers['x-trace'] as string);

    h.server.reset();
    const none = await request(buildApp(express, { traceIdHeader: false })).get('/chat');
    expect(none.headers['x-obs-trace-id']).toBeUndefined();
    // No header, but the request is still observed.
    await h.handle.flush();
    await h.server.waitFor(() => (rootNames(h).includes('GET /chat') ? true : undefined), {
      timeoutMs: 5000,
      description: 'root of GET /chat',
    });
  });

  it('exposes the trace id and root observation to handlers, not the request lifecycle', async () => {
    const app = express();
    app.use(obsMiddleware());
    let handle: ReturnType<typeof getRequestObservation>;
    app.get('/meta', (req, res) => {
      handle = getRequestObservation(req);
      handle?.observation.update({ metadata: { feature: 'meta' } });
      res.send('ok');
    });
    const res = await request(app).get('/meta');
    const { root } = await traceOf(h, res);
    // Frozen, two fields: a handler cannot reach finish() or swap the observation through it.
    expect(Object.keys(handle ?? {}).sort()).toEqual(['observation', 'traceId']);
    expect(Object.isFrozen(handle)).toBe(true);
    const traceId = handle?.traceId;
    expect(traceId).toBe(res.headers['x-obs-trace-id']);
    expect(root.attributes['obs.observation.metadata.feature']).toBe('meta');
  });

  it('ends the root as cancelled when the client disconnects mid-stream', async () => {
    let handlerSawClose = false;
    const app = express();
    app.use(obsMiddleware());
    app.get('/stream/:id', (_req, res) => {
      res.setHeader('content-type', 'text/event-stream');
      res.write('data: first\n\n');
      const timer = setInterval(() => res.write('data: more\n\n'), 5);
      res.on('close', () => {
        handlerSawClose = true;
        clearInterval(timer);
      });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const traceId = await new Promise<string>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/stream/7' }, (res) => {
          res.once('data', () => {
            resolve(res.headers['x-obs-trace-id'] as string);
            req.destroy();
          });
        });
        req.on('error', () => undefined);
        req.on('timeout', reject);
        req.end();
      });
      const { root } = await waitForTrace(h, traceId);
      expect(handlerSawClose).toBe(true);
      expect(root.name).toBe('GET /stream/:id');
      expect(root.attributes['obs.observation.level']).toBe('WARNING');
      expect(root.attributes['obs.observation.metadata.cancelled']).toBe(true);
      expect(root.attributes['obs.observation.status_message']).toMatch(/^cancelled/);
      expect(root.attributes['obs.observation.output']).toMatch(/^data: first\n\n/);
      expect(root.attributes['http.response.status_code']).toBe(200);
    } finally {
      server.close();
    }
  });

  it('ends the root as cancelled when the client leaves before any response', async () => {
    const app = express();
    app.use(obsMiddleware());
    let closed!: () => void;
    const handlerClosed = new Promise<void>((r) => (closed = r));
    app.get('/slow', (_req, res) => {
      res.on('close', closed);
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const req = httpRequest({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/slow' });
      req.on('error', () => undefined);
      req.end();
      await new Promise((r) => setTimeout(r, 30));
      req.destroy();
      await handlerClosed;
      await h.handle.flush();
      const root = await h.server.waitFor(() => h.server.spansByName('GET /slow')[0]);
      expect(root.attributes['obs.observation.metadata.cancelled']).toBe(true);
      expect(root.attributes['http.response.status_code']).toBeUndefined();
    } finally {
      server.close();
    }
  });
});
