/**
 * What the Fastify tests share: Fastify 4 and 5 to run each suite on, the local obs server
 * fixture, an app listening on a real port, and one request's trace read off the server (by the
 * response's `x-obs-trace-id`) with exactly the expected number of spans.
 */
import { initObs } from '@obs/core';
import type { ObsServer } from '@obs/local-server';
import { initTestObs as sharedInitTestObs, traceOf as arrivedTrace } from '@obs/local-server/testing';
import fastify5, { type FastifyInstance } from 'fastify';
import fastify4 from 'fastify4';

/** Both major versions, typed as 5 (the hooks and reply API the plugin uses are the same). */
export const FASTIFY_VERSIONS: Array<{ name: string; Fastify: typeof fastify5 }> = [
  { name: 'Fastify 5', Fastify: fastify5 },
  { name: 'Fastify 4', Fastify: fastify4 as unknown as typeof fastify5 },
];

/** Tracing against the fixture's server, with a short flush interval and no exit hooks. */
export const initTestObs = sharedInitTestObs(initObs);

/** An app listening on a free port, reached with `fetch`. */
export interface Running {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function listen(app: FastifyInstance): Promise<Running> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { fetch: (path, init) => fetch(`${url}${path}`, init), close: () => app.close() };
}

/** One trace once its root and exactly `count` spans arrived: its root, and `all` its spans. */
export async function traceOf(server: ObsServer, traceId: string | null, count: number) {
  const { root, spans } = await arrivedTrace(server, traceId, { spans: count, exact: true });
  return { root, all: spans };
}
