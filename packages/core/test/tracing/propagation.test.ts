/**
 * `propagateAttributes`: every span created inside (any depth, across await and timers, by obs
 * or by a plain OpenTelemetry tracer) carries the trace attributes; nested calls merge; invalid
 * values are dropped with one warning, never thrown.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { observe, propagateAttributes, startActiveObservation, startObservation } from '../../src/index.js';
import { attr, captureLogs, only, restoreLogger, sleep, TRACING_KEYS, tracingInit, warnings } from './harness.js';

const { server, handle: tracing } = await setupObsServer({ ...TRACING_KEYS, init: tracingInit() }).ready;
afterEach(() => restoreLogger());

const TRACE_KEYS = (span: { attributes: Record<string, unknown> }) =>
  Object.keys(span.attributes).filter((k) => k === 'user.id' || k === 'session.id' || k.startsWith('obs.trace.'));

describe('propagateAttributes', () => {
  it('reaches spans created after await, in setTimeout callbacks, at any depth, and in plain OTel tracers', async () => {
    const plain = trace.getTracer('plain');
    const returned = await propagateAttributes({ userId: 'u-1', sessionId: 's-1' }, async () => {
      startObservation('p-sync').end();
      await sleep(2);
      startObservation('p-after-await').end();
      await new Promise<void>((resolve) =>
        setTimeout(() => {
          startObservation('p-in-timeout').end();
          plain.startSpan('p-plain-in-timeout').end();
          resolve();
        }, 2),
      );
      await startActiveObservation('p-level1', async () => {
        await Promise.resolve();
        await startActiveObservation('p-level2', async () => {
          await sleep(1);
          plain.startActiveSpan('p-plain-deep', (s) => {
            plain.startSpan('p-plain-deeper').end();
            s.end();
          });
        });
      });
      plain.startSpan('p-plain-direct').end();
      await observe(async function pObserved() {
        await sleep(1);
      })();
      return 'fn result';
    });
    expect(returned).toBe('fn result');
    startObservation('p-outside').end();
    await tracing.flush();

    const inside = [
      'p-sync',
      'p-after-await',
      'p-in-timeout',
      'p-plain-in-timeout',
      'p-level1',
      'p-level2',
      'p-plain-deep',
      'p-plain-deeper',
      'p-plain-direct',
      'pObserved',
    ];
    for (const name of inside) {
      const span = only(server, name);
      expect(attr(span, 'user.id'), name).toBe('u-1');
      expect(attr(span, 'session.id'), name).toBe('s-1');
    }
    // Plain-tracer spans inside propagateAttributes are exported (they belong to the trace), with their own scope.
    expect(only(server, 'p-plain-direct').scope.name).toBe('plain');
    expect(TRACE_KEYS(only(server, 'p-outside'))).toEqual([]);
  });

  it('also sets the attributes on the span active where it is called', async () => {
    await startActiveObservation('p-root-active', async () => {
      await propagateAttributes({ userId: 'late-user', tags: ['t'] }, async () => {
        startObservation('p-root-child').end();
      });
    });
    await tracing.flush();
    expect(only(server, 'p-root-active').attributes).toMatchObject({ 'user.id': 'late-user', 'obs.trace.tags': ['t'] });
    expect(attr(only(server, 'p-root-child'), 'user.id')).toBe('late-user');
  });

  it('nested calls merge: tags union, metadata shallow-merged, inner values win; the outer scope is restored after', async () => {
    await propagateAttributes(
      {
        userId: 'outer-user',
        sessionId: 'outer-session',
        version: 'v-outer',
        traceName: 'outer-name',
        tags: ['a', 'b'],
        metadata: { a: 1, shared: 'outer', nested: { x: 1 } },
      },
      async () => {
        await propagateAttributes(
          {
            userId: 'inner-user',
            traceName: 'inner-name',
            tags: ['b', 'c', 'c'],
            metadata: { b: true, shared: 'inner', nested: { y: 2 } },
          },
          async () => {
            await sleep(1);
            startObservation('m-inner').end();
          },
        );
        startObservation('m-outer-after').end();
      },
    );
    await tracing.flush();

    const inner = only(server, 'm-inner');
    expect(inner.attributes).toMatchObject({
      'user.id': 'inner-user',
      'session.id': 'outer-session',
      'obs.version': 'v-outer',
      'obs.trace.name': 'inner-name',
      'obs.trace.metadata.a': 1,
      'obs.trace.metadata.b': true,
      'obs.trace.metadata.shared': 'inner',
      'obs.trace.metadata.nested.y': 2,
    });
    expect([...(attr(inner, 'obs.trace.tags') as string[])].sort()).toEqual(['a', 'b', 'c']);
    // Shallow merge: the inner `nested` replaced the outer one as a whole.
    expect(inner.attributes).not.toHaveProperty('obs.trace.metadata.nested.x');

    const after = only(server, 'm-outer-after');
    expect(after.attributes).toMatchObject({
      'user.id': 'outer-user',
      'obs.trace.name': 'outer-name',
      'obs.trace.tags': ['a', 'b'],
      'obs.trace.metadata.shared': 'outer',
      'obs.trace.metadata.nested.x': 1,
    });
    expect(after.attributes).not.toHaveProperty('obs.trace.metadata.b');
  });

  it('metadata takes any JSON-serialisable value, flattened by dotted path with types kept', async () => {
    await propagateAttributes(
      { metadata: { list: [1, 2, 3], flags: [true, false], deep: { a: { b: { c: true, n: 1.5 } } }, words: ['x'] } },
      async () => startObservation('md-object').end(),
    );
    await propagateAttributes({ metadata: 'just a string' }, async () => startObservation('md-string').end());
    await propagateAttributes({ metadata: 7 }, async () => startObservation('md-number').end());
    await tracing.flush();
    expect(only(server, 'md-object').attributes).toMatchObject({
      'obs.trace.metadata.list': [1, 2, 3],
      'obs.trace.metadata.flags': [true, false],
      'obs.trace.metadata.deep.a.b.c': true,
      'obs.trace.metadata.deep.a.b.n': 1.5,
      'obs.trace.metadata.words': ['x'],
    });
    expect(attr(only(server, 'md-string'), 'obs.trace.metadata')).toBe('just a string');
    expect(attr(only(server, 'md-number'), 'obs.trace.metadata')).toBe(7);
  });

  it('drops invalid values with exactly one warning and never throws; the valid ones still propagate', async () => {
    const logs = captureLogs();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const result = await propagateAttributes(
      {
        userId: 'u'.repeat(201),
        sessionId: 'valid-session',
        tags: ['ok', 42 as unknown as string, '', 'also-ok'],
        metadata: circular,
        version: 12 as unknown as string,
        traceName: 'valid-name',
      },
      async () => {
        startObservation('inv-child').end();
        return 'still ran';
      },
    );
    expect(result).toBe('still ran');
    await tracing.flush();
    const span = only(server, 'inv-child');
    expect(span.attributes).toMatchObject({
      'session.id': 'valid-session',
      'obs.trace.name': 'valid-name',
      'obs.trace.tags': ['ok', 'also-ok'],
    });
    expect(span.attributes).not.toHaveProperty('user.id');
    expect(span.attributes).not.toHaveProperty('obs.version');
    expect(Object.keys(span.attributes).filter((k) => k.startsWith('obs.trace.metadata'))).toEqual([]);
    const warned = warnings(logs);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/userId/);
    expect(warned[0]).toMatch(/metadata/);
    // Values are not echoed in full (a 201-char id would flood the log).
    expect(warned[0]).not.toContain('u'.repeat(201));
  });

  it('a userId of exactly 200 characters is kept, 201 is dropped; a non-string userId is dropped', async () => {
    const logs = captureLogs();
    const ok = 'a'.repeat(200);
    await propagateAttributes({ userId: ok, sessionId: 's'.repeat(201) }, async () => startObservation('len-200').end());
    await propagateAttributes({ userId: 12345 as unknown as string }, async () => startObservation('len-num').end());
    await tracing.flush();
    expect(attr(only(server, 'len-200'), 'user.id')).toBe(ok);
    expect(only(server, 'len-200').attributes).not.toHaveProperty('session.id');
    expect(only(server, 'len-num').attributes).not.toHaveProperty('user.id');
    // One warning per call with invalid values.
    expect(warnings(logs)).toHaveLength(2);
  });

  it('garbage parameters never throw', async () => {
    const logs = captureLogs();
    const r1 = propagateAttributes(null as never, () => 1);
    const r2 = propagateAttributes({ tags: 'not-an-array' as never, metadata: { big: 1n } }, () => 2);
    expect([r1, r2]).toEqual([1, 2]);
    expect(warnings(logs).length).toBeGreaterThanOrEqual(1);
  });
});
