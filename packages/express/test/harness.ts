/**
 * Shared test set-up: a real local obs server, tracing initialised once per test file (each
 * vitest file runs in its own process), and Express 4 and 5 to parameterise the suites over.
 */
import { initObs, type ObsHandle } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer, type ObsConnection, type ObsServerFixture } from '@obs/local-server/testing';
import express5 from 'express';
import express4 from 'express4';
import { expect } from 'vitest';

export type Express = typeof express5;

/** Both major versions, to run each suite against. */
export const EXPRESS_VERSIONS: Array<{ name: string; major: 4 | 5; express: Express }> = [
  { name: 'Express 5', major: 5, express: express5 },
  { name: 'Express 4', major: 4, express: express4 },
];

/** The fixture of these tests: `setupObsServer` with tracing initialised against the server. */
export type Harness = ObsServerFixture<ObsHandle>;

/** Tracing against the fixture's server, with a short flush interval and no exit hooks. */
export const initTestObs = (c: ObsConnection): ObsHandle => initObs({ ...c, flushInterval: 0.05, flushOnExit: false });

export { setupObsServer };

/** A request's root observation: the SERVER span the middleware made. */
export function rootOf(spans: DecodedSpan[]): DecodedSpan | undefined {
  return spans.find((s) => s.kind === 2 && s.scope.name === 'obs-sdk' && s.attributes['http.request.method'] !== undefined);
}

/**
 * The spans of the trace a response belongs to (its `x-obs-trace-id` header), once its root
 * reached the server, plus `expectMore` other spans.
 */
export async function traceOf(
  h: Harness,
  res: { headers: Record<string, unknown> },
  expectMore = 0,
): Promise<{ root: DecodedSpan; spans: DecodedSpan[] }> {
  const traceId = res.headers['x-obs-trace-id'];
  expect(traceId, 'x-obs-trace-id header').toMatch(/^[0-9a-f]{32}$/);
  return waitForTrace(h, traceId as string, expectMore);
}

/** Waits until the trace's root (and `expectMore` other spans) reached the server. */
export async function waitForTrace(h: Harness, traceId: string, expectMore = 0): Promise<{ root: DecodedSpan; spans: DecodedSpan[] }> {
  await h.handle.flush();
  const spans = await h.server.waitFor(
    () => {
      const s = h.server.spansByTrace(traceId);
      return rootOf(s) && s.length >= 1 + expectMore ? s : undefined;
    },
    { timeoutMs: 5000, description: `root span of trace ${traceId}` },
  );
  return { root: rootOf(spans)!, spans };
}

/** The root names of every request trace the server got. */
export function rootNames(h: Harness): string[] {
  return h.server
    .spans()
    .filter((s) => s.kind === 2 && s.scope.name === 'obs-sdk')
    .map((s) => s.name);
}

/** A child of `parent` by name. */
export function childOf(spans: DecodedSpan[], parent: DecodedSpan, name: string): DecodedSpan | undefined {
  return spans.find((s) => s.name === name && s.parentSpanId === parent.spanId);
}
