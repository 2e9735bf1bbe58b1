import { trace } from '@opentelemetry/api';
import { warnUnreadable } from './hostile-input.js';

/** Trace id of the active span, if any. */
export function getActiveTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}

/** Span (observation) id of the active span, if any. */
export function getActiveSpanId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().spanId;
}

/**
 * A W3C trace id (32 hex). With a `seed` it is deterministic (SHA-256 of the seed), so an
 * external id (a request id, a conversation id) maps to the same trace every time.
 * A seed that cannot be read (a Proxy that throws) gives a random id, with one warning: it never rejects.
 */
export async function createTraceId(seed?: string): Promise<string> {
  if (seed !== undefined && seed !== null) {
    try {
      // Bytes are hashed as they are (a 20 MB Buffer is never turned into a string first).
      const bytes = ArrayBuffer.isView(seed) ? (seed as ArrayBufferView) : new TextEncoder().encode(String(seed));
      const digest = await crypto.subtle.digest('SHA-256', bytes as BufferSource);
      return toHex(new Uint8Array(digest).slice(0, 16));
    } catch (err) {
      warnUnreadable('createTraceId seed', err);
    }
  }
  return toHex(crypto.getRandomValues(new Uint8Array(16)));
}

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
