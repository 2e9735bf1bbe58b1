/**
 * Errors: thrown, rejected (Express 5), passed to next(err), or a 5xx make the root level ERROR
 * with the message; the error reaches the app's own error handler unchanged; 4xx is not an error.
 */
import { once } from 'node:events';
import { get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { obsErrorHandler, obsMiddleware } from '../src/index.js';
import { EXPRESS_VERSIONS, traceOf, initTestObs, setupObsServer, waitForTrace, type Express } from './harness.js';

const h = setupObsServer({ init: initTestObs });

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function buildApp(express: Express, seen: unknown[]) {
  const app = express();
  app.use(obsMiddleware());
  app.use(express.json());
  app.get('/throw/:id', () => {
    throw new Error('sync boom');
  });
  app.get('/next-error', (_req, _res, next) => {
    setTimeout(() => next(new Error('passed to next')), 1);
  });
  app.get('/reject', async () => {
    await new Promise((r) => setTimeout(r, 1));
    throw new Error('async boom');
  });
  app.get('/status-500', (_req, res) => {
    res.status(503).send('unavailable');
  });
  app.get('/status-400', (_req, res) => {
    res.status(422).json({ error: 'invalid' });
  });
  app.get('/client-error', (_req, _res, next) => {
    next(new HttpError(403, 'forbidden for you'));
  });
  app.post('/parse', (req, res) => {
    res.json(req.body);
  });
  app.get('/fail-mid-stream', (_req, res, next) => {
    res.setHeader('content-type', 'text/event-stream');
    res.write('data: partial\n\n');
    setTimeout(() => next(new Error('upstream broke mid-stream')), 2);
  });
  app.use(obsErrorHandler());
  // The app's own error handler: must get the very same error object.
  app.use((err: Error & { status?: number }, _req: Request, res: Response, next: NextFunction) => {
    seen.push(err);
    if (res.headersSent) return next(err); // Express then destroys the connection
    res.status(err.status ?? 500).json({ error: err.message });
  });
  return app;
}

describe.each(EXPRESS_VERSIONS)('errors on $name', ({ express, major }) => {
  const seen: unknown[] = [];
  const app = buildApp(express, seen);

  async function expectError(path: string, message: string) {
    seen.length = 0;
    const res = await request(app).get(path);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: message });
    expect(seen).toHaveLength(1);
    expect((seen[0] as Error).message).toBe(message);
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    expect(root.attributes['obs.observation.status_message']).toBe(message);
    expect(root.status).toEqual({ code: 2, message });
    expect(root.events.some((e) => e.name === 'exception' && e.attributes['exception.message'] === message)).toBe(true);
    expect(root.attributes['http.response.status_code']).toBe(500);
    return root;
  }

  it('records a thrown error and passes the same error on', async () => {
    const root = await expectError('/throw/1', 'sync boom');
    expect(root.name).toBe('GET /throw/:id');
    expect(seen[0]).toBeInstanceOf(Error);
  });

  it('records an error passed to next(err)', async () => {
    await expectError('/next-error', 'passed to next');
  });

  it.runIf(major === 5)('records a rejected async handler (Express 5)', async () => {
    await expectError('/reject', 'async boom');
  });

  it('marks a 5xx response ERROR without any error object', async () => {
    const res = await request(app).get('/status-500');
    expect(res.status).toBe(503);
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    expect(root.attributes['obs.observation.status_message']).toBe('HTTP 503');
    expect(root.attributes['obs.observation.output']).toBe('unavailable');
  });

  it('does not mark a 4xx response as an error', async () => {
    const res = await request(app).get('/status-400');
    expect(res.status).toBe(422);
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.status.code).toBe(0);
    expect(root.attributes['http.response.status_code']).toBe(422);
  });

  it('does not mark a 404 as an error', async () => {
    const res = await request(app).get('/missing');
    expect(res.status).toBe(404);
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.status.code).toBe(0);
  });

  it('keeps an error the app answered with a 4xx as a client error: message, no ERROR level', async () => {
    seen.length = 0;
    const res = await request(app).get('/client-error');
    expect(res.status).toBe(403);
    expect(seen[0]).toBeInstanceOf(HttpError);
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['obs.observation.status_message']).toBe('forbidden for you');
    expect(root.status.code).toBe(0);
  });

  it('treats a malformed JSON body (body-parser 400) as a client error', async () => {
    seen.length = 0;
    const res = await request(app).post('/parse').set('content-type', 'application/json').send('{"broken":');
    expect(res.status).toBe(400);
    expect(seen).toHaveLength(1);
    const { root } = await traceOf(h, res);
    // The body parser failed before any route was reached.
    expect(root.name).toBe('POST <unmatched>');
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['obs.observation.status_message']).toMatch(/JSON|Unexpected|position/i);
  });

  it('an error after the headers went out is an ERROR, not a cancelled request', async () => {
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      // Express destroys the connection: read the trace id from the headers, then wait for the end.
      const traceId = await new Promise<string>((resolve) => {
        const req = httpGet({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/fail-mid-stream' }, (res) => {
          res.on('data', () => undefined);
          res.on('error', () => undefined);
          res.on('close', () => resolve(res.headers['x-obs-trace-id'] as string));
        });
        req.on('error', () => undefined);
      });
      const { root } = await waitForTrace(h, traceId);
      expect(root.attributes['obs.observation.level']).toBe('ERROR');
      expect(root.attributes['obs.observation.status_message']).toBe('upstream broke mid-stream');
      expect(root.attributes['obs.observation.metadata.cancelled']).toBeUndefined();
      expect(root.attributes['obs.observation.output']).toBe('data: partial\n\n');
    } finally {
      server.close();
    }
  });

  it('without obsErrorHandler, a thrown error still ends the root as ERROR (HTTP 500)', async () => {
    const bare = express();
    bare.use(obsMiddleware());
    bare.get('/boom', () => {
      throw new Error('unhandled');
    });
    const res = await request(bare).get('/boom');
    expect(res.status).toBe(500);
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    expect(root.name).toBe('GET /boom');
  });
});
