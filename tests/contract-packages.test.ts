/**
 * The contract's package names (`@obs/client`, `@obs/tracing`, `@obs/otel`) are entry points over
 * `@obs/core`, not copies: each name is the same object as core's, and spans started through
 * either path share one provider, one context and one processor.
 */
import * as obsClient from '@obs/client';
import * as core from '@obs/core';
import { setupObsServer } from '@obs/local-server/testing';
import * as otel from '@obs/otel';
import * as tracing from '@obs/tracing';
import { describe, expect, it } from 'vitest';

const local = setupObsServer({ reset: false, init: (c) => otel.initObs({ ...c, flushOnExit: false }) });

describe('contract package names', () => {
  it.each([
    ['@obs/tracing', tracing],
    ['@obs/otel', otel],
    ['@obs/client', obsClient],
  ] as const)('every export of %s is the very object @obs/core exports', (_name, entry) => {
    const names = Object.keys(entry);
    expect(names.length).toBeGreaterThan(4);
    for (const name of names) expect((entry as Record<string, unknown>)[name], name).toBe((core as Record<string, unknown>)[name]);
  });

  it('@obs/tracing and @obs/core spans share one context and one processor: one tree on the server', async () => {
    expect(core.getObsHandle()).toBe(local.handle);
    let traceId = '';
    await tracing.startActiveObservation('outer-from-tracing', async (outer) => {
      traceId = outer.traceId;
      const inner = core.startObservation('inner-from-core', { input: 'x' }, { asType: 'generation' });
      inner.end();
      await core.startActiveObservation('active-from-core', async () => {
        tracing.startObservation('leaf-from-tracing').end();
      });
    });
    await local.handle.flush();
    const spans = local.server.spansByTrace(traceId);
    const byName = new Map(spans.map((s) => [s.name, s]));
    expect(spans).toHaveLength(4);
    const outer = byName.get('outer-from-tracing')!;
    expect(outer.parentSpanId).toBeFalsy();
    expect(byName.get('inner-from-core')?.parentSpanId).toBe(outer.spanId);
    expect(byName.get('active-from-core')?.parentSpanId).toBe(outer.spanId);
    expect(byName.get('leaf-from-tracing')?.parentSpanId).toBe(byName.get('active-from-core')?.spanId);
  });

  it('an ObsClient from @obs/client delivers scores to the same server', async () => {
    const client = new obsClient.ObsClient({
      baseUrl: local.server.url,
      publicKey: local.server.publicKey,
      secretKey: local.server.secretKey,
    });
    client.score.create({ id: 'contract-score-1', traceId: 'a'.repeat(32), name: 'quality', value: 1 });
    await client.flush();
    expect(local.server.scores.map((s) => s.id)).toContain('contract-score-1');
    await client.shutdown();
  });
});
