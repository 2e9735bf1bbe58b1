/**
 * What the Fastify tests share: Fastify 4 and 5 to run each suite on, the local obs server
 * fixture, and an app listening on a real port; one request's trace read off the server (by the
 * response's `x-obs-trace-id`) with exactly the expected number of spans is the Node.js adapters'
 * shared `traceOf`.
 */
import { initObs } from '@obs/core';
import { initTestObs as sharedInitTestObs } from '@obs/local-server/testing';
import fastify5, { type FastifyInstance } from 'fastify';
import fastify4 from 'fastify4';
import type { Running } from '../../../tests/support/node-adapter-scenarios.js';

export { type Running, traceOf } from '../../../tests/support/node-adapter-scenarios.js';

/** Both major versions, typed as 5 (the hooks and reply API the plugin uses are the same). */
export const FASTIFY_VERSIONS: Array<{ name: string; Fastify: typeof fastify5 }> = [
  { name: 'Fastify 5', Fastify: fastify5 },
  { name: 'Fastify 4', Fastify: fastify4 as unknown as typeof fastify5 },
];

/** Tracing against the fixture's server, with a short flush interval and no exit hooks. */
export const initTestObs = sharedInitTestObs(initObs);

/** The app listening on a free port, reached with `fetch`. */
export async function listen(app: FastifyInstance): Promise<Running> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { fetch: (path, init) => fetch(`${url}${path}`, init), close: () => app.close() };
}
