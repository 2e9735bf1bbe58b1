/**
 * `mask` (applied to every input, output and metadata attribute, flattened keys included; a
 * throwing mask masks fully) and `shouldExportSpan` composed with `isDefaultExportSpan`.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import {
  isDefaultExportSpan,
  MASK_FAILED,
  type MaskFunction,
  propagateAttributes,
  startActiveObservation,
  startObservation,
} from '../../src/index.js';
import { attr, captureLogs, only, perTestTracing, TRACING_KEYS, warnings } from '../tracing/harness.js';

const { server } = await setupObsServer(TRACING_KEYS).ready;
const install = perTestTracing(server);

/** Replaces every string containing "secret" (at any depth) with "***". */
function redact(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('secret') ? '***' : value;
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]));
  return value;
}

describe('mask', () => {
  it('is applied to input, output, observation metadata and trace metadata, flattened keys included', async () => {
    const seen: unknown[] = [];
    const mask: MaskFunction = ({ data }) => {
      seen.push(data);
      return redact(data);
    };
    const tracing = install({ mask });
    await propagateAttributes({ userId: 'user-secret-id', metadata: { apiKey: 'secret-trace', plan: 'pro', n: 3 } }, async () => {
      startObservation(
        'masked-gen',
        {
          input: { password: 'secret-pw', question: 'hi' },
          output: 'the secret answer',
          metadata: { nested: { token: 'secret-token', count: 5 }, list: ['ok', 'secret-in-list'], plain: 'visible' },
          model: 'secret-model-name',
          statusMessage: 'secret status',
        },
        { asType: 'generation' },
      ).end();
    });
    await tracing.flush();
    const span = only(server, 'masked-gen');
    expect(JSON.parse(attr(span, 'obs.observation.input') as string)).toEqual({ password: '***', question: 'hi' });
    expect(attr(span, 'obs.observation.output')).toBe('***');
    expect(span.attributes).toMatchObject({
      'obs.observation.metadata.nested.token': '***',
      'obs.observation.metadata.nested.count': 5,
      'obs.observation.metadata.list': ['ok', '***'],
      'obs.observation.metadata.plain': 'visible',
      'obs.trace.metadata.apiKey': '***',
      'obs.trace.metadata.plan': 'pro',
      'obs.trace.metadata.n': 3,
    });
    // The mask saw the value the user passed (input parsed back from JSON), and flattened leaves.
    expect(seen).toContainEqual({ password: 'secret-pw', question: 'hi' });
    expect(seen).toContain('secret-token');
    expect(seen).toContain('secret-trace');
    // Only input, output and metadata are masked.
    expect(span.attributes).toMatchObject({
      'obs.observation.model.name': 'secret-model-name',
      'obs.observation.status_message': 'secret status',
      'user.id': 'user-secret-id',
    });
    expect(JSON.stringify(span.attributes)).not.toMatch(/secret-(pw|token|trace|in-list)|the secret answer/);
  });

  it('masks values set later with update() and spans of plain tracers inside an observation', async () => {
    const tracing = install({ mask: ({ data }) => redact(data) });
    await startActiveObservation('masked-root', async (root) => {
      root.update({ output: { reply: 'top secret' }, metadata: { later: 'secret-later' } });
      trace
        .getTracer('plain')
        .startSpan('masked-plain', { attributes: { 'obs.observation.input': 'secret plain input', other: 'secret kept' } })
        .end();
    });
    await tracing.flush();
    expect(attr(only(server, 'masked-root'), 'obs.observation.output')).toBe('{"reply":"***"}');
    expect(attr(only(server, 'masked-root'), 'obs.observation.metadata.later')).toBe('***');
    expect(attr(only(server, 'masked-plain'), 'obs.observation.input')).toBe('***');
    expect(attr(only(server, 'masked-plain'), 'other')).toBe('secret kept');
  });

  it('a throwing mask masks every such attribute fully, warns, and the span is still exported', async () => {
    const logs = captureLogs();
    const tracing = install({
      mask: () => {
        throw new Error('mask bug');
      },
    });
    await propagateAttributes({ metadata: { t: 'trace-meta' } }, async () => {
      startObservation(
        'mask-throws',
        {
          input: 'sensitive input',
          output: { a: 1 },
          metadata: { deep: { k: 'v' }, n: 1 },
          model: 'kept-model',
        },
        { asType: 'generation' },
      ).end();
    });
    await tracing.flush();
    const span = only(server, 'mask-throws');
    for (const key of [
      'obs.observation.input',
      'obs.observation.output',
      'obs.observation.metadata.deep.k',
      'obs.observation.metadata.n',
      'obs.trace.metadata.t',
    ]) {
      expect(attr(span, key), key).toBe(MASK_FAILED);
    }
    expect(attr(span, 'obs.observation.model.name')).toBe('kept-model');
    expect(JSON.stringify(span.attributes)).not.toMatch(/sensitive input|trace-meta/);
    expect(warnings(logs).length).toBeGreaterThan(0);
    expect(warnings(logs).join('\n')).toContain('mask bug');
  });
});

describe('shouldExportSpan', () => {
  it('default: obs spans and plain spans inside an observation are exported; a plain span outside is not', async () => {
    const tracing = install();
    const plain = trace.getTracer('plain-db');
    plain.startSpan('plain-outside').end();
    await startActiveObservation('f-root', async () => {
      plain.startActiveSpan('plain-inside', (s) => {
        plain.startSpan('plain-inside-nested').end();
        s.end();
      });
    });
    plain.startSpan('plain-after').end();
    // Outside any observation, but an LLM span: exported by the default filter.
    plain.startSpan('plain-genai', { attributes: { 'gen_ai.request.model': 'm' } }).end();
    trace.getTracer('ai').startSpan('vercel-ai-span').end();
    trace.getTracer('openinference.instrumentation.openai').startSpan('openinference-span').end();
    await tracing.flush();
    const names = server
      .spans()
      .map((s) => s.name)
      .sort();
    expect(names).toEqual(['f-root', 'plain-inside', 'plain-inside-nested', 'plain-genai', 'vercel-ai-span', 'openinference-span'].sort());
    expect(only(server, 'plain-inside').parentSpanId).toBe(only(server, 'f-root').spanId);
  });

  it('a custom filter composes with isDefaultExportSpan', async () => {
    const calls: string[] = [];
    const tracing = install({
      shouldExportSpan: ({ otelSpan }) => {
        calls.push(otelSpan.name);
        return isDefaultExportSpan(otelSpan) && !otelSpan.name.startsWith('noisy');
      },
    });
    const plain = trace.getTracer('plain');
    await startActiveObservation('c-root', async () => {
      startObservation('noisy-child').end();
      startObservation('kept-child').end();
      plain.startSpan('c-plain-inside').end();
    });
    plain.startSpan('c-plain-outside').end();
    await tracing.flush();
    expect(
      server
        .spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['c-plain-inside', 'c-root', 'kept-child']);
    expect(calls.sort()).toEqual(['c-plain-inside', 'c-plain-outside', 'c-root', 'kept-child', 'noisy-child']);
  });

  it('a custom filter can export what the default drops', async () => {
    const tracing = install({ shouldExportSpan: () => true });
    trace.getTracer('plain').startSpan('everything-goes').end();
    await tracing.flush();
    expect(server.spans().map((s) => s.name)).toEqual(['everything-goes']);
  });

  it('a throwing filter never throws into the app: the span is exported and a warning logged', async () => {
    const logs = captureLogs();
    const tracing = install({
      shouldExportSpan: () => {
        throw new Error('filter bug');
      },
    });
    startObservation('filter-throws').end();
    await tracing.flush();
    expect(server.spans().map((s) => s.name)).toEqual(['filter-throws']);
    expect(warnings(logs).join('\n')).toContain('filter bug');
  });
});
