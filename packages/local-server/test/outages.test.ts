/**
 * Fault additions for delivery tests: hangs held until released, faults for a duration, the
 * port taken down and brought back on the same port, and a body limit answering 413.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startObsServer, type ObsServer } from '../src/index.js';
import { basic } from './helpers.js';

let server: ObsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const health = (s: ObsServer) => fetch(`${s.url}/api/public/health`).then((r) => r.status);

describe('outages', () => {
  it('hang: the request gets no answer until the faults are cleared, then its connection is dropped', async () => {
    server = await startObsServer({ quiet: true });
    server.injectFault({ path: '/api/public/health', hang: true });
    let settled = false;
    const pending = health(server).then(
      () => (settled = true),
      (err: unknown) => {
        settled = true;
        return err;
      },
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(settled).toBe(false);
    server.clearFaults();
    expect(await pending).toBeInstanceOf(Error);
    expect(await health(server)).toBe(200);
  });

  it('durationMs: every matching request fails while it lasts, none after', async () => {
    server = await startObsServer({ quiet: true });
    server.injectFault({ path: '/api/public/health', status: 503, durationMs: 200 });
    expect([await health(server), await health(server), await health(server)]).toEqual([503, 503, 503]);
    await new Promise((r) => setTimeout(r, 250));
    expect(await health(server)).toBe(200);
  });

  it('takeDown / bringUp / restart: refused while down, the same port afterwards, data kept', async () => {
    server = await startObsServer({ quiet: true });
    const { port } = server;
    await health(server);
    await server.takeDown();
    await expect(health(server)).rejects.toThrow();
    await server.bringUp();
    expect(server.port).toBe(port);
    expect(await health(server)).toBe(200);
    const restarting = server.restart(150);
    await new Promise((r) => setTimeout(r, 50));
    await expect(health(server)).rejects.toThrow();
    await restarting;
    expect(await health(server)).toBe(200);
    expect(server.requests.filter((r) => r.path === '/api/public/health')).toHaveLength(3);
  });

  it('maxBodyBytes: a larger body is read and answered 413', async () => {
    server = await startObsServer({ quiet: true, maxBodyBytes: 1000 });
    const post = (size: number) =>
      fetch(`${server!.url}/api/public/otel/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic(server!.publicKey, server!.secretKey) },
        body: 'x'.repeat(size),
      }).then((r) => r.status);
    expect(await post(5000)).toBe(413);
    server.setMaxBodyBytes(10_000);
    expect(await post(5000)).not.toBe(413);
  });
});
