/**
 * How the two instrumentation suites read what arrived: `tracedSpans` runs a call under a root
 * observation and returns the instrumentation's spans below it, each checked to hang directly
 * under the root; `only` the one span; the prompt and the tool call both suites send and expect.
 */
import { startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { type ObsServerFixture, traced } from '@obs/local-server/testing';
import { expect } from 'vitest';

/**
 * Runs `fn` under a root observation and returns the spans of its trace below the root that `keep`
 * picks, once one arrived (OpenInference ends a streamed call's span when its own copy of the
 * stream ends, a moment after the caller's); every span but the root must be the root's child.
 */
export async function tracedSpans(
  local: ObsServerFixture<{ flush(): Promise<unknown> }>,
  fn: () => Promise<unknown>,
  keep: (span: DecodedSpan) => boolean = () => true,
): Promise<DecodedSpan[]> {
  const run = await traced(local, startActiveObservation, fn, 'request');
  if (run.error) throw run.error;
  const below = () => local.server.spansByTrace(run.traceId).filter((s) => s.spanId !== run.root.spanId);
  const spans = await local.server.waitFor(
    () => {
      const kept = below().filter(keep);
      return kept.length > 0 && kept;
    },
    { description: `the instrumentation's spans of trace ${run.traceId}` },
  );
  for (const s of below()) expect(s.parentSpanId, s.name).toBe(run.root.spanId);
  return spans;
}

/** The one span of `spans`. */
export function only(spans: DecodedSpan[]): DecodedSpan {
  expect(spans).toHaveLength(1);
  return spans[0]!;
}

export const SYSTEM = 'You are terse.';
export const QUESTION = 'Weather in Paris?';
/** The weather tool call as obs reads it. */
export const WEATHER_CALL = { id: 'call-1', name: 'weather', args: { city: 'Paris' } };
