/**
 * Parentage of observations as the server sees it, trace/span id helpers, and the removed APIs
 * of contract 4.6.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { context, TraceFlags, trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import * as core from '../../src/index.js';
import {
  createTraceId,
  getActiveSpanId,
  getActiveTraceId,
  propagateAttributes,
  startActiveObservation,
  startObservation,
} from '../../src/index.js';
import { only, sleep, TRACING_KEYS, tracingInit } from './harness.js';

const { server, handle: tracing } = await setupObsServer({ ...TRACING_KEYS, init: tracingInit() }).ready;

describe('parentage', () => {
  it('observation.startObservation() makes a child (and grandchild) in the same trace, not made active', async () => {
    const root = startObservation('p-root', {}, { asType: 'agent' });
    const child = root.startObservation('p-child', { input: 'x' }, { asType: 'tool' });
    const grandchild = child.startObservation('p-grandchild', {}, { asType: 'generation' });
    // Not active: nothing is the active span here.
    expect(getActiveSpanId()).toBeUndefined();
    const sibling = startObservation('p-unrelated');
    grandchild.end();
    child.end();
    root.end();
    sibling.end();
    await tracing.flush();

    const r = only(server, 'p-root');
    const c = only(server, 'p-child');
    const g = only(server, 'p-grandchild');
    const s = only(server, 'p-unrelated');
    expect(r.parentSpanId).toBeUndefined();
    expect(r.spanId).toBe(root.id);
    expect(r.traceId).toBe(root.traceId);
    expect(c.parentSpanId).toBe(r.spanId);
    expect(c.traceId).toBe(r.traceId);
    expect(c.attributes['obs.observation.type']).toBe('tool');
    expect(g.parentSpanId).toBe(c.spanId);
    expect(g.traceId).toBe(r.traceId);
    expect(s.parentSpanId).toBeUndefined();
    expect(s.traceId).not.toBe(r.traceId);
  });

  it('startActiveObservation nests everything started inside, across await and timers', async () => {
    const result = await startActiveObservation('a-outer', async (outer) => {
      expect(getActiveSpanId()).toBe(outer.id);
      expect(getActiveTraceId()).toBe(outer.traceId);
      await sleep(2);
      const inner = await startActiveObservation(
        'a-inner',
        async (innerObs) => {
          await new Promise<void>((resolve) =>
            setTimeout(() => {
              startObservation('a-leaf-timer').end();
              resolve();
            }, 2),
          );
          startObservation('a-leaf').end();
          return innerObs.id;
        },
        { asType: 'chain' },
      );
      // The outer one is active again once the inner one returned.
      expect(getActiveSpanId()).toBe(outer.id);
      trace.getTracer('plain').startSpan('a-plain-inside').end();
      return inner;
    });
    await tracing.flush();

    const outer = only(server, 'a-outer');
    const inner = only(server, 'a-inner');
    expect(result).toBe(inner.spanId);
    expect(outer.parentSpanId).toBeUndefined();
    expect(inner.parentSpanId).toBe(outer.spanId);
    expect(inner.attributes['obs.observation.type']).toBe('chain');
    expect(only(server, 'a-leaf').parentSpanId).toBe(inner.spanId);
    expect(only(server, 'a-leaf-timer').parentSpanId).toBe(inner.spanId);
    expect(only(server, 'a-plain-inside').parentSpanId).toBe(outer.spanId);
    for (const s of server.spans()) expect(s.traceId).toBe(outer.traceId);
    // The outer observation ended after the inner one (OTel anchors each span's clock to
    // Date.now() at its start, so allow a millisecond of skew between spans).
    expect(outer.endTimeUnixNano + 1_000_000n >= inner.endTimeUnixNano).toBe(true);
  });

  it('parentSpanContext attaches to a parent from elsewhere (startObservation and startActiveObservation)', async () => {
    const traceId = await createTraceId('external-request-123');
    const parentSpanContext = { traceId, spanId: '1234567890abcdef', traceFlags: TraceFlags.SAMPLED, isRemote: true };

    startObservation('remote-child', {}, { parentSpanContext }).end();
    await startActiveObservation(
      'remote-active',
      async () => {
        expect(getActiveTraceId()).toBe(traceId);
        startObservation('remote-grandchild').end();
      },
      { parentSpanContext },
    );
    // parentSpanContext wins over the active span.
    await startActiveObservation('some-active', async () => {
      startObservation('remote-over-active', {}, { parentSpanContext }).end();
    });
    await tracing.flush();

    expect(only(server, 'remote-child')).toMatchObject({ traceId, parentSpanId: '1234567890abcdef' });
    const active = only(server, 'remote-active');
    expect(active).toMatchObject({ traceId, parentSpanId: '1234567890abcdef' });
    expect(only(server, 'remote-grandchild')).toMatchObject({ traceId, parentSpanId: active.spanId });
    expect(only(server, 'remote-over-active')).toMatchObject({ traceId, parentSpanId: '1234567890abcdef' });
  });

  it('startActiveObservation with endOnExit: false leaves the observation open until end()', async () => {
    const obs = await startActiveObservation(
      'kept-open',
      async (o) => {
        await sleep(1);
        return o;
      },
      { endOnExit: false },
    );
    await tracing.flush();
    expect(server.spansByName('kept-open')).toHaveLength(0);
    obs.update({ output: 'done later' });
    obs.end();
    await tracing.flush();
    expect(only(server, 'kept-open').attributes['obs.observation.output']).toBe('done later');
  });

  it('startTime is honoured', async () => {
    const startTime = new Date('2024-06-01T12:00:00.000Z');
    startObservation('timed', {}, { startTime }).end(new Date('2024-06-01T12:00:01.500Z'));
    await tracing.flush();
    const span = only(server, 'timed');
    expect(span.startTime.toISOString()).toBe('2024-06-01T12:00:00.000Z');
    expect(span.durationMs).toBe(1500);
  });
});

describe('ids', () => {
  it('getActiveTraceId/getActiveSpanId are undefined outside an observation and match it inside', async () => {
    expect(getActiveTraceId()).toBeUndefined();
    expect(getActiveSpanId()).toBeUndefined();
    const seen = await startActiveObservation('ids', async (obs) => {
      await sleep(1);
      return { traceId: getActiveTraceId(), spanId: getActiveSpanId(), obs };
    });
    expect(getActiveTraceId()).toBeUndefined();
    await tracing.flush();
    const span = only(server, 'ids');
    expect(seen.traceId).toBe(span.traceId);
    expect(seen.spanId).toBe(span.spanId);
    expect(seen.obs.id).toBe(span.spanId);
    expect(seen.obs.traceId).toBe(span.traceId);
    expect(seen.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(seen.spanId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('createTraceId(seed) is deterministic 32-hex; seeds differ; no seed is random', async () => {
    const a1 = await createTraceId('conversation-1');
    const a2 = await createTraceId('conversation-1');
    const b = await createTraceId('conversation-2');
    const r1 = await createTraceId();
    const r2 = await createTraceId();
    for (const id of [a1, b, r1, r2]) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(a1).toBe(a2);
    expect(a1).not.toBe(b);
    expect(r1).not.toBe(r2);
    expect(r1).not.toBe(a1);
    expect(a1).not.toBe('0'.repeat(32));
  });
});

describe('removed APIs (contract 4.6)', () => {
  it('setActiveTraceIO and createTraceAttributes are not exported; an observation has no setTraceIO', () => {
    const exported = core as Record<string, unknown>;
    expect('setActiveTraceIO' in exported).toBe(false);
    expect('createTraceAttributes' in exported).toBe(false);
    expect('ObsTraceAttributes' in exported).toBe(false);
    const obs = startObservation('no-trace-io');
    expect((obs as unknown as Record<string, unknown>).setTraceIO).toBeUndefined();
    expect(() => (obs as unknown as { setTraceIO: (x: unknown) => void }).setTraceIO({ input: 1 })).toThrow(TypeError);
    obs.end();
    // What replaced them is there.
    expect(typeof core.setActiveTraceAsPublic).toBe('function');
    expect(typeof obs.setTraceAsPublic).toBe('function');
    expect(typeof obs.update).toBe('function');
  });

  it('propagateAttributes inside an observation keeps it as the parent of work under a span obs never saw', async () => {
    // A provider obs has no processor on (another tool's): its span never reaches obs.
    const unseen = new BasicTracerProvider().getTracer('other-tool');
    let outerId = '';
    await startActiveObservation('pu-outer', async (outer) => {
      outerId = outer.id;
      await propagateAttributes({ userId: 'pu-user' }, async () => {
        const foreign = unseen.startSpan('pu-foreign');
        await context.with(trace.setSpan(context.active(), foreign), async () => startObservation('pu-inner').end());
        foreign.end();
      });
    });
    await tracing.flush();
    const inner = only(server, 'pu-inner');
    expect(inner.parentSpanId).toBe(outerId);
    expect(inner.attributes['user.id']).toBe('pu-user');
    expect(server.spansByName('pu-foreign')).toEqual([]);
  });
});
