/**
 * W3C Trace Context in a request's `params._meta`: the unprefixed `traceparent` and `tracestate`
 * keys the MCP specification reserves for it (SEP-414) and OpenInference's MCP instrumentation
 * writes and reads, so a client or server traced by either interoperates. Written from the
 * observation's own span context, not through the global propagator: an app whose propagator is
 * Sentry's or B3 still sends what every MCP peer reads.
 */
import { createTraceState, isSpanContextValid, isValidSpanId, isValidTraceId, type SpanContext } from '@opentelemetry/api';
import { isDict } from '@obs/core/kit';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** `{ traceparent, tracestate? }` for a request sent under `parent`; empty for an invalid context. */
export function traceMeta(parent: SpanContext): Record<string, string> {
  if (!isSpanContextValid(parent)) return {};
  const flags = (parent.traceFlags & 0xff).toString(16).padStart(2, '0');
  const meta: Record<string, string> = { traceparent: `00-${parent.traceId}-${parent.spanId}-${flags}` };
  const state = parent.traceState?.serialize();
  if (state) meta['tracestate'] = state;
  return meta;
}

/** The caller's span context from a request's `_meta`, when it carries a valid `traceparent`. */
export function remoteParent(meta: unknown): SpanContext | undefined {
  if (!isDict(meta)) return undefined;
  const value = meta['traceparent'];
  const m = typeof value === 'string' ? TRACEPARENT.exec(value.trim()) : null;
  if (!m) return undefined;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
  // Version ff is invalid; version 00 has nothing after the flags; later versions may.
  if (version === 'ff' || (version === '00' && rest) || !isValidTraceId(traceId) || !isValidSpanId(spanId)) return undefined;
  const state = meta['tracestate'];
  return {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16),
    isRemote: true,
    ...(typeof state === 'string' && state !== '' ? { traceState: createTraceState(state) } : {}),
  };
}
