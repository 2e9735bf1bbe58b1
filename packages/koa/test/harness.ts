/**
 * What the Koa tests share: Koa 3 and 2 to run each suite on, tracing against the local obs server,
 * and an app listening on a real port; one request's trace read off the server (by the response's
 * `x-obs-trace-id`) with exactly the expected number of spans is the Node.js adapters' shared
 * `traceOf`.
 */
import type { AddressInfo, Server } from 'node:net';
import { initObs } from '@obs/core';
import { initTestObs as sharedInitTestObs } from '@obs/local-server/testing';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import type { Running } from '../../../tests/support/node-adapter-scenarios.js';

export { type Running, traceOf } from '../../../tests/support/node-adapter-scenarios.js';

/** Both major versions, typed as 3 (the middleware API the adapter uses is the same). */
export const KOA_VERSIONS: Array<{ name: string; Koa: typeof Koa3 }> = [
  { name: 'Koa 3', Koa: Koa3 },
  { name: 'Koa 2', Koa: Koa2 as unknown as typeof Koa3 },
];

/** Tracing against the fixture's server, with a short flush interval and no exit hooks. */
export const initTestObs = sharedInitTestObs(initObs);

/** The app listening on a free port, reached with `fetch`. */
export async function listen(app: Koa3): Promise<Running> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    fetch: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
