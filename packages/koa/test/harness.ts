/**
 * What the Koa tests share: Koa 3 and 2 to run each suite on, tracing against the local obs server,
 * an app listening on a real port, and one request's trace read off the server (by the response's
 * `x-obs-trace-id`) with exactly the expected number of spans.
 */
import type { AddressInfo, Server } from 'node:net';
import { initObs, type ObsHandle } from '@obs/core';
import type { DecodedSpan, ObsServer } from '@obs/local-server';
import type { ObsConnection } from '@obs/local-server/testing';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import { expect } from 'vitest';

/** Both major versions, typed as 3 (the middleware API the adapter uses is the same). */
export const KOA_VERSIONS: Array<{ name: string; Koa: typeof Koa3 }> = [
  { name: 'Koa 3', Koa: Koa3 },
  { name: 'Koa 2', Koa: Koa2 as unknown as typeof Koa3 },
];

/** Tracing against the fixture's server, with a short flush interval and no exit hooks. */
export const initTestObs = (c: ObsConnection): ObsHandle => initObs({ ...c, flushInterval: 0.05, flushOnExit: false });

export interface Running {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

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
