/**
 * The propagators obs registers when nothing else did, as `NodeTracerProvider.register()` does:
 * W3C Trace Context (`traceparent`, `tracestate`) and W3C Baggage (`baggage`), on the API alone.
 */
import {
  baggageEntryMetadataFromString,
  createTraceState,
  isSpanContextValid,
  isValidSpanId,
  isValidTraceId,
  propagation,
  trace,
  type BaggageEntry,
  type Context,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
} from '@opentelemetry/api';
import { isTracingSuppressed } from '../suppress.js';

const TRACEPARENT = /^\s?([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?\s?$/;

function header(getter: TextMapGetter, carrier: unknown, name: string): string | undefined {
  const value = getter.get(carrier, name);
  return Array.isArray(value) ? value.join(',') : value;
}

/** `traceparent` / `tracestate` (W3C Trace Context, version 00). */
class TraceContextPropagator implements TextMapPropagator {
  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    const sc = trace.getSpanContext(context);
    if (!sc || isTracingSuppressed(context) || !isSpanContextValid(sc)) return;
    setter.set(carrier, 'traceparent', `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`);
    const state = sc.traceState?.serialize();
    if (state) setter.set(carrier, 'tracestate', state);
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    const value = getter.get(carrier, 'traceparent');
    const parent = Array.isArray(value) ? value[0] : value;
    const m = parent ? TRACEPARENT.exec(parent) : null;
    if (!m) return context;
    const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
    // Version ff is invalid; version 00 has nothing after the flags; later versions may.
    if (version === 'ff' || (version === '00' && rest) || !isValidTraceId(traceId) || !isValidSpanId(spanId)) return context;
    const state = header(getter, carrier, 'tracestate');
    return trace.setSpanContext(context, {
      traceId,
      spanId,
      isRemote: true,
      traceFlags: Number.parseInt(flags, 16),
      ...(state ? { traceState: createTraceState(state) } : {}),
    });
  }

  fields(): string[] {
    return ['traceparent', 'tracestate'];
  }
}

/** W3C Baggage limits, as OpenTelemetry applies them on inject. */
const MAX_PAIRS = 180;
const MAX_PAIR_LENGTH = 4096;
const MAX_TOTAL_LENGTH = 8192;

/** `baggage` (W3C Baggage). */
class BaggagePropagator implements TextMapPropagator {
  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    const baggage = propagation.getBaggage(context);
    if (!baggage || isTracingSuppressed(context)) return;
    let total = 0;
    const pairs: string[] = [];
    for (const [key, entry] of baggage.getAllEntries()) {
      if (pairs.length >= MAX_PAIRS) break;
      const meta = entry.metadata?.toString();
      const pair = `${encodeURIComponent(key)}=${encodeURIComponent(entry.value)}${meta ? `;${meta}` : ''}`;
      if (pair.length > MAX_PAIR_LENGTH || total + pair.length + (pairs.length ? 1 : 0) > MAX_TOTAL_LENGTH) continue;
      total += pair.length + (pairs.length ? 1 : 0);
      pairs.push(pair);
    }
    if (pairs.length) setter.set(carrier, 'baggage', pairs.join(','));
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    const value = header(getter, carrier, 'baggage');
    if (!value) return context;
    const entries: Record<string, BaggageEntry> = {};
    for (const item of value.split(',')) {
      const [pair = '', ...props] = item.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      try {
        const key = decodeURIComponent(pair.slice(0, eq).trim());
        const entry: BaggageEntry = { value: decodeURIComponent(pair.slice(eq + 1).trim()) };
        if (props.length) entry.metadata = baggageEntryMetadataFromString(props.join(';'));
        entries[key] = entry;
      } catch {
        // A malformed percent-encoding: that entry is dropped, as the SDK drops it.
      }
    }
    return Object.keys(entries).length ? propagation.setBaggage(context, propagation.createBaggage(entries)) : context;
  }

  fields(): string[] {
    return ['baggage'];
  }
}

/** Runs several propagators: each injects; each extracts over the previous one's result. */
export class CompositePropagator implements TextMapPropagator {
  /** Asked for on every request by instrumentations that set CORS headers: computed once. */
  private readonly fieldNames: string[];

  constructor(private readonly propagators: TextMapPropagator[]) {
    this.fieldNames = [...new Set(propagators.flatMap((p) => p.fields()))];
  }

  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    for (const p of this.propagators) p.inject(context, carrier, setter);
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    return this.propagators.reduce((ctx, p) => p.extract(ctx, carrier, getter), context);
  }

  fields(): string[] {
    return this.fieldNames.slice();
  }
}

/** What obs registers: Trace Context and Baggage. */
export function w3cPropagator(): TextMapPropagator {
  return new CompositePropagator([new TraceContextPropagator(), new BaggagePropagator()]);
}
