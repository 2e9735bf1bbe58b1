/** Shared test setup: a real local obs server, obs initialised against it, span lookups. */
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { initObs, type ObsHandle } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer, type ObsConnection, type ObsServerFixture } from '@obs/local-server/testing';

/** The fixture of these tests: `setupObsServer({ init: initTestObs })`. */
export type Harness = ObsServerFixture<ObsHandle>;

/** Tracing against the fixture's server, with a short flush interval. */
export const initTestObs = (c: ObsConnection): ObsHandle => initObs({ ...c, flushInterval: 0.05 });

export { setupObsServer };

/** Waits for LangChain's queued callbacks, then for every ended span to reach the server. */
export async function settle(h: Harness): Promise<DecodedSpan[]> {
  await awaitAllCallbacks();
  await h.handle.flush();
  return h.server.spans();
}

export function attr(span: DecodedSpan | undefined, key: string): unknown {
  return span?.attributes[key];
}

export function type(span: DecodedSpan | undefined): unknown {
  return attr(span, 'obs.observation.type');
}

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of whatever shape the test asserts on, typed as JSON.parse types it
export function json(span: DecodedSpan | undefined, key: 'input' | 'output' | 'model.parameters' | 'usage_details'): any {
  const v = attr(span, `obs.observation.${key}`);
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** The one span with this name (fails loudly when there are none or several). */
export function one(spans: DecodedSpan[], name: string | RegExp): DecodedSpan {
  const found = spans.filter((s) => (typeof name === 'string' ? s.name === name : name.test(s.name)));
  if (found.length !== 1)
    throw new Error(`expected one span named ${String(name)}, found ${found.length}: ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
}

export function childrenOf(spans: DecodedSpan[], parent: DecodedSpan): DecodedSpan[] {
  return spans.filter((s) => s.parentSpanId === parent.spanId && s.traceId === parent.traceId);
}

/** Every span below `root` (root included). */
export function subtree(spans: DecodedSpan[], root: DecodedSpan): DecodedSpan[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...childrenOf(spans, out[i]!));
  return out;
}

export function metadata(span: DecodedSpan | undefined, key: string): unknown {
  return attr(span, `obs.observation.metadata.${key}`);
}
