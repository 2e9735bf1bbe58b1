/**
 * obs's own tracer provider (`LightTracerProvider`, what `initObs` registers): its spans are
 * OpenTelemetry spans to everything else (API, processors, exporters), sampled as the SDK
 * samples (OTEL_TRACES_SAMPLER), limited as the SDK's env says, and what they carry reaches the
 * server intact.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { context, createContextKey, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { defaultResource } from '@opentelemetry/resources';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { initObs, ObsSpanProcessor, startActiveObservation } from '../../src/index.js';
import { LayeredContext, layer, SPAN_KEY } from '../../src/tracing/layered-context.js';
import { LightSpan } from '../../src/tracing/provider/light-span.js';
import { LightTracerProvider } from '../../src/tracing/provider/light-provider.js';
import { YieldingTracerProvider } from '../../src/tracing/provider/yielding-provider.js';
import { newSpanId, newTraceId } from '../../src/tracing/provider/span-ids.js';
import { only, TRACING_KEYS } from './harness.js';

const { server } = await setupObsServer({ ...TRACING_KEYS }).ready;

/** A processor that keeps what it saw, as an app's own processor would. */
function recorder(): SpanProcessor & { started: Span[]; ended: ReadableSpan[] } {
  const started: Span[] = [];
  const ended: ReadableSpan[] = [];
  return {
    started,
    ended,
    onStart: (span) => void started.push(span),
    onEnd: (span) => void ended.push(span),
    forceFlush: async () => {},
    shutdown: async () => {},
  };
}

function providerWith(...processors: SpanProcessor[]): LightTracerProvider {
  return new LightTracerProvider({ resource: defaultResource(), spanProcessors: processors });
}

const ENV = [
  'OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT',
  'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
] as const;
afterEach(() => {
  for (const name of ENV) delete process.env[name];
});

describe('LightTracerProvider', () => {
  it('is what initObs registers (behind the yielding provider), and samples as OTEL_TRACES_SAMPLER says', async () => {
    trace.disable();
    const keys = { baseUrl: server.url, publicKey: server.publicKey, secretKey: server.secretKey, flushOnExit: false };
    const handle = initObs(keys);
    const delegate = (trace.getTracerProvider() as { getDelegate(): unknown }).getDelegate();
    expect(handle.mode).toBe('registered');
    expect(delegate).toBeInstanceOf(YieldingTracerProvider);
    expect((delegate as YieldingTracerProvider).own).toBeInstanceOf(LightTracerProvider);
    expect(trace.getTracer('any').startSpan('s')).toBeInstanceOf(LightSpan);
    await handle.shutdown();

    const sampledIn = (sampler: string, arg?: string) => {
      process.env.OTEL_TRACES_SAMPLER = sampler;
      if (arg === undefined) delete process.env.OTEL_TRACES_SAMPLER_ARG;
      else process.env.OTEL_TRACES_SAMPLER_ARG = arg;
      const tracer = providerWith().getTracer('t');
      const roots = Array.from({ length: 400 }, () => tracer.startSpan('r'));
      const sampledParent = roots.find((r) => r.isRecording())!;
      const unsampledParent = trace.wrapSpanContext({ traceId: newTraceId(), spanId: newSpanId(), traceFlags: TraceFlags.NONE });
      const child = (parent: ReturnType<typeof tracer.startSpan> | undefined) =>
        parent ? tracer.startSpan('c', {}, trace.setSpan(ROOT_CONTEXT, parent)).isRecording() : undefined;
      return {
        roots: roots.filter((r) => r.isRecording()).length,
        childOfSampled: child(sampledParent),
        childOfUnsampled: child(unsampledParent),
      };
    };
    expect(sampledIn('always_on')).toEqual({ roots: 400, childOfSampled: true, childOfUnsampled: true });
    expect(sampledIn('parentbased_always_on')).toEqual({ roots: 400, childOfSampled: true, childOfUnsampled: false });
    expect(sampledIn('always_off')).toEqual({ roots: 0, childOfSampled: undefined, childOfUnsampled: false });
    // A ratio of 0.25 keeps about a quarter of the roots (random trace ids: a wide margin), children follow.
    const quarter = sampledIn('parentbased_traceidratio', '0.25');
    expect(quarter.roots).toBeGreaterThan(40);
    expect(quarter.roots).toBeLessThan(160);
    expect(quarter.childOfSampled).toBe(true);
    expect(quarter.childOfUnsampled).toBe(false);
    // The SDK's decision for a given trace id: its 32-bit words XORed, compared with ratio x (2^32 - 1).
    process.env.OTEL_TRACES_SAMPLER = 'traceidratio';
    process.env.OTEL_TRACES_SAMPLER_ARG = '0.5';
    const { samplerFromEnv } = await import('../../src/tracing/provider/sampler.js');
    const ratio = samplerFromEnv();
    expect(ratio.root('7ffffffe000000000000000000000000')).toBe(true);
    expect(ratio.root('80000000000000000000000000000000')).toBe(false);
    delete process.env.OTEL_TRACES_SAMPLER_ARG;
  });

  it('gives processors a ReadableSpan: times, parent, scope, resource, status, events, links', () => {
    const rec = recorder();
    const tracer = providerWith(rec).getTracer('my-lib', '1.2.3', { schemaUrl: 'https://schema' });
    const linked = { traceId: newTraceId(), spanId: newSpanId(), traceFlags: TraceFlags.SAMPLED };
    const before = Date.now();
    const parent = tracer.startSpan('parent', { kind: SpanKind.SERVER, attributes: { a: 1, bad: { nested: true } as never } });
    const child = tracer.startSpan(
      'child',
      { links: [{ context: linked, attributes: { why: 'because' } }] },
      trace.setSpan(ROOT_CONTEXT, parent),
    );
    child.addEvent('step', { n: 2 });
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'broke' });
    child.setStatus({ code: SpanStatusCode.UNSET });
    child.recordException(new TypeError('nope'));
    child.end();
    parent.end();
    const after = Date.now();

    expect(rec.started.map((s) => (s as unknown as ReadableSpan).name)).toEqual(['parent', 'child']);
    const [c, p] = rec.ended as [ReadableSpan, ReadableSpan];
    expect(p.kind).toBe(SpanKind.SERVER);
    expect(p.attributes).toEqual({ a: 1 });
    expect(c.parentSpanContext?.spanId).toBe(p.spanContext().spanId);
    expect(c.spanContext().traceId).toBe(p.spanContext().traceId);
    expect(c.instrumentationScope).toEqual({ name: 'my-lib', version: '1.2.3', schemaUrl: 'https://schema' });
    expect(c.resource).toBe(p.resource);
    expect(c.status).toEqual({ code: SpanStatusCode.ERROR, message: 'broke' });
    expect(c.events.map((e) => e.name)).toEqual(['step', 'exception']);
    expect(c.events[1]!.attributes).toMatchObject({ 'exception.type': 'TypeError', 'exception.message': 'nope' });
    expect(c.links).toEqual([{ context: linked, attributes: { why: 'because' } }]);
    expect(c.ended).toBe(true);
    const ms = (t: [number, number]) => t[0] * 1e3 + t[1] / 1e6;
    expect(ms(p.startTime)).toBeGreaterThanOrEqual(before - 1);
    expect(ms(p.endTime)).toBeLessThanOrEqual(after + 1);
    expect(ms(c.startTime)).toBeGreaterThanOrEqual(ms(p.startTime));
    expect(ms(c.duration)).toBeCloseTo(ms(c.endTime) - ms(c.startTime), 3);
    // Ended: writes are ignored, as the SDK ignores them.
    (c as unknown as Span).setAttribute('late', true);
    (c as unknown as Span).end();
    expect(c.attributes.late).toBeUndefined();
    expect(rec.ended).toHaveLength(2);
  });

  it('calls onEnding (span still writable) then onEnd, also for a processor added to the list later', () => {
    const provider = providerWith(recorder());
    const seen: string[] = [];
    const late: SpanProcessor & { onEnding(span: Span): void } = {
      onStart: () => {},
      onEnding: (span) => {
        span.setAttribute('ending.saw', true);
        seen.push(`ending ended=${(span as unknown as ReadableSpan).ended}`);
      },
      onEnd: (span) => void seen.push(`end ended=${span.ended} attr=${String(span.attributes['ending.saw'])}`),
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    provider._activeSpanProcessor._spanProcessors.push(late);
    provider.getTracer('t').startSpan('s').end();
    expect(seen).toEqual(['ending ended=false', 'end ended=true attr=true']);
  });

  it('samples as the SDK default: a parent not sampled makes non-recording children; suppressed tracing makes none', () => {
    const rec = recorder();
    const tracer = providerWith(rec).getTracer('t');
    const notSampled = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: newTraceId(),
      spanId: newSpanId(),
      traceFlags: TraceFlags.NONE,
      isRemote: true,
    });
    const skipped = tracer.startSpan('skipped', {}, notSampled);
    expect(skipped.isRecording()).toBe(false);
    expect(skipped.spanContext().traceId).toBe(trace.getSpanContext(notSampled)!.traceId);
    skipped.end();
    const suppressed = tracer.startSpan('suppressed', {}, suppressTracing(ROOT_CONTEXT));
    expect(suppressed.isRecording()).toBe(false);
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: newTraceId(),
      spanId: newSpanId(),
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    const continued = tracer.startSpan('continued', {}, remote);
    continued.end();
    expect(rec.started).toHaveLength(1);
    expect((rec.ended[0] as ReadableSpan).parentSpanContext?.spanId).toBe(trace.getSpanContext(remote)!.spanId);
  });

  it('applies the SDK span limits from the environment', () => {
    process.env.OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT = '3';
    process.env.OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT = '4';
    const rec = recorder();
    const span = providerWith(rec).getTracer('t').startSpan('limited');
    span.setAttributes({ a: 'abcdefgh', b: ['xyzxyz', 'q'], c: 3, d: 4 });
    span.setAttribute('a', 'overwrite');
    span.end();
    const ended = rec.ended[0]!;
    expect(ended.attributes).toEqual({ a: 'over', b: ['xyzx', 'q'], c: 3 });
    expect(ended.droppedAttributesCount).toBe(1);
  });

  it('startActiveSpan makes the span active in every overload', () => {
    const tracer = providerWith(recorder()).getTracer('t');
    const key = createContextKey('k');
    const base = ROOT_CONTEXT.setValue(key, 'v');
    const seen: unknown[] = [];
    tracer.startActiveSpan('a', (s) => {
      seen.push(trace.getActiveSpan() === s);
      s.end();
    });
    tracer.startActiveSpan('b', {}, (s) => {
      seen.push(trace.getActiveSpan() === s);
      s.end();
    });
    tracer.startActiveSpan('c', {}, base, (s) => {
      seen.push(trace.getActiveSpan() === s && context.active().getValue(key) === 'v');
      s.end();
    });
    expect(seen).toEqual([true, true, true]);
  });

  it('unique, valid W3C ids', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const t = newTraceId();
      const s = newSpanId();
      expect(t).toMatch(/^[0-9a-f]{32}$/);
      expect(s).toMatch(/^[0-9a-f]{16}$/);
      ids.add(t).add(s);
    }
    expect(ids.size).toBe(10_000);
  });

  it('exports over OTLP what a processor added at start, with the right times and parentage', async () => {
    const stamp: SpanProcessor = {
      onStart: (span) => void span.setAttribute('app.stamp', 'yes'),
      onEnd: () => {},
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    const processor = new ObsSpanProcessor({
      baseUrl: server.url,
      publicKey: server.publicKey,
      secretKey: server.secretKey,
      flushInterval: 0.02,
    });
    const provider = providerWith(stamp, processor);
    trace.disable();
    provider.register();
    const before = BigInt(Date.now()) * 1_000_000n;
    await startActiveObservation('lp-root', async () => {
      const child = trace.getTracer('app').startSpan('lp-child');
      await new Promise((r) => setTimeout(r, 5));
      child.end();
    });
    const after = BigInt(Date.now()) * 1_000_000n;
    await provider.forceFlush();
    const root = only(server, 'lp-root');
    const child = only(server, 'lp-child');
    expect(child.parentSpanId).toBe(root.spanId);
    expect(child.attributes['app.stamp']).toBe('yes');
    expect(root.attributes['app.stamp']).toBe('yes');
    expect(root.startTimeUnixNano).toBeGreaterThanOrEqual(before - 1_000_000n);
    expect(root.endTimeUnixNano).toBeLessThanOrEqual(after + 1_000_000n);
    expect(child.durationMs).toBeGreaterThanOrEqual(4);
    await provider.shutdown();
    trace.disable();
  });
});

describe('LayeredContext', () => {
  const a = createContextKey('a');
  const b = createContextKey('b');
  const c = createContextKey('c');

  it('reads its own values first, then its parents, and sets and deletes without touching them', () => {
    const base: Context = ROOT_CONTEXT.setValue(a, 'base-a').setValue(c, 'base-c');
    const ctx = layer(base, [a, b], ['a1', 'b1']);
    expect(ctx).toBeInstanceOf(LayeredContext);
    expect([ctx.getValue(a), ctx.getValue(b), ctx.getValue(c)]).toEqual(['a1', 'b1', 'base-c']);
    const deleted = ctx.deleteValue(c).setValue(b, 'b2');
    expect([deleted.getValue(a), deleted.getValue(b), deleted.getValue(c)]).toEqual(['a1', 'b2', undefined]);
    expect([ctx.getValue(b), ctx.getValue(c)]).toEqual(['b1', 'base-c']);
    const span = trace.wrapSpanContext({ traceId: newTraceId(), spanId: newSpanId(), traceFlags: 1 });
    expect(trace.getSpan(layer(base, [SPAN_KEY], [span]))).toBe(span);
  });

  it('flattens deep chains, keeping every value', () => {
    let ctx: Context = layer(ROOT_CONTEXT, [c], ['root']);
    const keys = Array.from({ length: 60 }, (_, i) => createContextKey(`k${i}`));
    keys.forEach((k, i) => {
      ctx = ctx.setValue(k, i);
    });
    ctx = ctx.deleteValue(c);
    expect(keys.map((k) => ctx.getValue(k))).toEqual(keys.map((_, i) => i));
    expect(ctx.getValue(c)).toBeUndefined();
    // Past the depth limit the context is a flat one again (reads stop walking).
    expect(ctx instanceof LayeredContext ? ctx.depth : 0).toBeLessThanOrEqual(24);
  });
});
