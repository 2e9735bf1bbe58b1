import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initObs } from '../../src/index.js';
import { NodeHttpObserver, observedRequestOf } from '../../src/http/index.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushOnExit: false }) });

/** The layer's requests in flight (shared on `globalThis`, as two copies of core share them). */
const inFlight = () => (globalThis as Record<symbol, Map<object, unknown>>)[Symbol.for('obs.http.node.live')]!;

describe('NodeHttpObserver holds a request only while its response is open', () => {
  const layer = new NodeHttpObserver({}, { adapter: 'test' });
  const seen: IncomingMessage[] = [];
  const held: boolean[] = [];
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      layer.start(req, res);
      held.push(observedRequestOf(req) !== undefined);
      if (req.url === '/hang') return; // answered never: the client gives up
      setImmediate(() => res.end('ok'));
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.close();
  });

  const get = (path: string) =>
    new Promise<void>((resolve) => {
      const req = httpRequest({ port, path, agent: false }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.end();
    });
  /**
   * A client that leaves before the answer: the response closes without finishing. It leaves once
   * the server has seen the request (a fixed delay lost the request itself on a loaded machine).
   */
  const leave = (path: string) =>
    new Promise<void>((resolve) => {
      const req = httpRequest({ port, path, agent: false });
      req.on('error', () => resolve());
      req.end();
      const wait = () => (seen.some((r) => r.url === path) ? req.destroy() : setTimeout(wait, 10));
      setTimeout(wait, 10);
    });

  it('forgets answered, abandoned and ignored requests once their responses close; every observed one is exported', async () => {
    local.server.reset();
    const before = inFlight().size;
    await Promise.all([...Array.from({ length: 20 }, (_, i) => get(`/chat/${i}`)), leave('/hang'), get('/health')]);
    // The server side closes the abandoned response once it sees the socket go (a moment, on a
    // loaded machine several): wait for it, bounded, rather than guess how long it takes.
    for (let waited = 0; inFlight().size > before && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    await local.handle.flush();

    expect(seen).toHaveLength(22);
    // While running, observed requests were found by their request (the health check is ignored).
    expect(held.filter(Boolean)).toHaveLength(21);
    expect(inFlight().size).toBe(before);
    for (const req of seen) expect(observedRequestOf(req)).toBeUndefined();
    const roots = local.server.spans().filter((s) => s.name.startsWith('GET /'));
    expect(roots).toHaveLength(21);
    expect(roots.filter((s) => s.name === 'GET /hang').map((s) => s.attributes['obs.observation.metadata.cancelled'])).toEqual([true]);
  });
});

describe('NodeHttpObserver with responses that never close', () => {
  it('holds at most 4,096 requests in its map, and still finds and ends the older ones', async () => {
    local.server.reset();
    const layer = new NodeHttpObserver({ traceIdHeader: false }, { adapter: 'test' });
    const made: { req: object; close: () => void }[] = [];
    const before = inFlight().size;
    for (let i = 0; i < 5000; i++) {
      let onClose = () => {};
      const res = {
        statusCode: 200,
        writableEnded: true,
        on(event: string, fn: () => void) {
          if (event === 'close') onClose = () => fn.call(res);
          return this;
        },
      } as Record<string, unknown>;
      const req = { method: 'GET', url: `/never-closed/${i}`, headers: {}, res };
      res.req = req;
      expect(layer.start(req as never, res as never)).toBeDefined();
      made.push({ req, close: () => onClose() });
    }
    expect(inFlight().size - before).toBe(4096);
    // The oldest moved out of the map, not out of reach.
    expect(observedRequestOf(made[0]!.req)).toBeDefined();
    made[0]!.close();
    made[4999]!.close();
    await local.handle.flush();
    expect(
      local.server
        .spansByName(/^GET \/never-closed\//)
        .map((s) => s.name)
        .sort(),
    ).toEqual(['GET /never-closed/0', 'GET /never-closed/4999']);
    for (const m of made.slice(1, 4999)) m.close();
    expect(inFlight().size).toBe(before);
  });
});
