/**
 * What the Hono tests share: the local obs server fixture, and reading one request's trace off it
 * (by the response's `x-obs-trace-id`) with exactly the expected number of spans.
 */
import { initObs } from '@obs/core';
import type { DecodedSpan, ObsServer } from '@obs/local-server';
import { initTestObs as sharedInitTestObs, traceOf as arrivedTrace } from '@obs/local-server/testing';
import { expect } from 'vitest';

/** Tracing against the fixture's server, with a short flush interval and no exit hooks. */
export const initTestObs = sharedInitTestObs(initObs);

/** One trace once its root and exactly `count` spans arrived: its root, and `all` its spans. */
export async function traceOf(server: ObsServer, traceId: string | null, count: number) {
  const { root, spans } = await arrivedTrace(server, traceId, { spans: count, exact: true });
  return { root, all: spans };
}

/** The assertions every runtime makes on the chat request's tree. */
export function expectChatTree(root: DecodedSpan, all: DecodedSpan[], user: string): void {
  expect(root.name).toBe('POST /chat/:id');
  expect(root.attributes).toMatchObject({
    'http.route': '/chat/:id',
    'http.response.status_code': 200,
    'user.id': user,
    'obs.observation.metadata.chat': '7',
  });
  expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ message: 'hello', password: '[REDACTED]' });
  expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({ answer: 'echo: hello' });
  const child = all.find((s) => s.name === 'answer')!;
  expect(child.parentSpanId).toBe(root.spanId);
  expect(child.attributes['user.id']).toBe(user);
}

/** The chat request every runtime sends. */
export const chatRequest = (user = 'u-7'): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-user': user },
  body: JSON.stringify({ message: 'hello', password: 'hunter2' }),
});
