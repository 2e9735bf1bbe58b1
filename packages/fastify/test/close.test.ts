/**
 * `fastify.close()` flushes: with a flush interval far beyond the test, the request's spans reach
 * the local obs server only because closing the app sent them (and not at all with
 * `flushOnClose: false`).
 */
import { initObs } from '@obs/core';
import { obsPlugin } from '@obs/fastify';
import { setupObsServer } from '@obs/local-server/testing';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { routes } from './fixtures.js';
import { listen } from './harness.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 600, flushOnExit: false }) });

describe('fastify.close()', () => {
  it('sends the spans of the requests it served before it resolves', async () => {
    const fastify = Fastify();
    await fastify.register(obsPlugin);
    routes(fastify);
    const app = await listen(fastify);
    const res = await app.fetch('/api/chat/3', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'u-3' },
      body: JSON.stringify({ message: 'bye' }),
    });
    expect(res.status).toBe(200);
    await res.text();
    expect(local.server.spans()).toHaveLength(0);
    await app.close();
    // No wait: close() resolved after the flush.
    expect(
      local.server
        .spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['POST /api/chat/:id', 'answer']);
  });

  it('flushOnClose: false leaves them to the next batch', async () => {
    const fastify = Fastify();
    await fastify.register(obsPlugin, { flushOnClose: false });
    routes(fastify);
    const app = await listen(fastify);
    const res = await app.fetch('/crash');
    await res.text();
    await app.close();
    expect(local.server.spans()).toHaveLength(0);
    await local.handle.flush();
    expect(local.server.spans().map((s) => s.name)).toEqual(['GET /crash']);
  });
});
