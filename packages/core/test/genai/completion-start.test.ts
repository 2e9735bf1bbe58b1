/**
 * A GenAI span's first chunk as `completion_start_time`: the instrumentation times it on its own
 * clock (`gen_ai.response.time_to_first_chunk`, seconds after its start), which can run past the
 * span's end by a millisecond; obs keeps it within the span.
 */
import type { HrTime } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { readSemconvSpan } from '../../src/genai/semconv-spans.js';
import type { ReadableSpan } from '../../src/tracing/sdk-types.js';

const at = (ms: number): HrTime => [Math.floor(ms / 1000), (ms % 1000) * 1e6];

function chatSpan(durationMs: number, firstChunkS: number): ReadableSpan {
  const start = 1_700_000_000_000;
  return {
    name: 'chat claude',
    startTime: at(start),
    endTime: at(start + durationMs),
    status: { code: 0 },
    events: [],
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.response.model': 'm', 'gen_ai.response.time_to_first_chunk': firstChunkS },
  } as unknown as ReadableSpan;
}

const firstChunk = (span: ReadableSpan) =>
  new Date(String(readSemconvSpan(span, 'chat')!.values['obs.observation.completion_start_time'])).getTime() - 1_700_000_000_000;

describe('completion_start_time from time_to_first_chunk', () => {
  it('is the start plus the time to the first chunk, and at the latest the span’s end', () => {
    expect(firstChunk(chatSpan(100, 0.04))).toBe(40);
    expect(firstChunk(chatSpan(100, 0.101))).toBe(100);
  });
});
