/**
 * What the Fastify tests share: Fastify 4 and 5 to run each suite on, the local obs server
 * fixture, an app listening on a real port, and one request's trace read off the server (by the
 * response's `x-obs-trace-id`) with exactly the expected number of spans.
 */
import { initObs, type ObsHandle } from '@obs/core';
import type { DecodedSpan, ObsServer } from '@obs/local-server';
import type { ObsConnection } from '@obs/local-server/testing';
import fastify5, { type FastifyInstance } from 'fastify';
import fastify4 from 'fastify4';
import { expect } from 'vitest';

/** Both major versions, typed as 5 (the hooks and reply API the plugin uses are the same). */
export const FASTIFY_VERSIONS: Array<{ name: string; Fastify: typeof fastify5 }> = [
  { name: 'Fastify 5', Fastify: fastify5 },
  { name: 'Fastify 4', Fastify: fastify4 as unknown as typeof fastify5 },
];

/** Tracing against the fixture's server, with a short flush interval and no exit hooks. */
export const initTestObs = (c: ObsConnection): ObsHandle => initObs({ ...c, flushInterval: 0.05, flushOnExit: false });

/** An app listening on a free port, reached with `fetch`. */
export interface Running {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function listen(app: FastifyInstance): Promise<Running> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { fetch: (path, init) => fetch(`${url}${path}`, init), close: () => app.close() };
}

/** The spans of one trace once its root and exactly `count` spans arrived, and its root. */
export async function traceOf(
  server: ObsServer,
  traceId: string | null,
  count: number,
): Promise<{ root: DecodedSpan; all: DecodedSpan[] }> {
  expect(traceId, 'x-obs-trace-id').toMatch(/^[0-9a-f]{32}$/);
  const all = await server.waitFor(
    () => {
      const s = server.spansByTrace(traceId!);
      return s.length >= count && s.some((span) => !span.parentSpanId) ? s : undefined;
    },
    { timeoutMs: 10_000, description: `${count} spans of trace ${traceId}` },
  );
  expect(all.map((s) => s.name)).toHaveLength(count);
  const roots = all.filter((s) => !s.parentSpanId);
  expect(roots).toHaveLength(1);
  return { root: roots[0]!, all };
}
