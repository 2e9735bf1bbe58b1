/**
 * Every span attribute key of wire contract 2.1 (observation) and 2.2 (trace), sent through a
 * real ObsSpanProcessor to the local obs server and asserted on what it decoded.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import {
  OBSERVATION_TYPES,
  type ObservationType,
  observe,
  propagateAttributes,
  setActiveTraceAsPublic,
  startActiveObservation,
  startObservation,
  updateActiveObservation,
} from '../../src/index.js';
import { toSpanAttributes } from '../../src/tracing/observation-attributes.js';
import { attr, captureLogs, only, PACKAGE_VERSION, restoreLogger, TRACING_KEYS, tracingInit, warnings } from './harness.js';

const { server, handle: tracing } = await setupObsServer({
  ...TRACING_KEYS,
  init: tracingInit({ environment: 'it-env', release: 'rel-42' }),
}).ready;

describe('observation attributes (wire contract 2.1)', () => {
  it('sends all ten observation types with obs.observation.type, from the obs-sdk scope', async () => {
    // The exported list is the contract's, no more, no less: pinned here as the contract writes it.
    expect(OBSERVATION_TYPES.join(' ')).toBe('span generation event agent tool chain retriever evaluator embedding guardrail');
    for (const type of OBSERVATION_TYPES) {
      const obs = startObservation(`type-${type}`, { input: `in-${type}` }, { asType: type });
      expect(obs.type).toBe(type);
      // An event is a point in time: it is already ended, ending it again is harmless.
      obs.end();
    }
    await tracing.flush();
    expect(server.spans()).toHaveLength(10);
    for (const type of OBSERVATION_TYPES) {
      const span = only(server, `type-${type}`);
      expect(attr(span, 'obs.observation.type')).toBe(type);
      expect(attr(span, 'obs.observation.input')).toBe(`in-${type}`);
      expect(span.scope).toEqual({ name: 'obs-sdk', version: PACKAGE_VERSION });
    }
    const event = only(server, 'type-event');
    expect(event.endTimeUnixNano).toBe(event.startTimeUnixNano);
  });

  it('update() writes each field straight onto the span, as toSpanAttributes converts it; a field that throws becomes a placeholder', async () => {
    const attrs = {
      input: { q: 1 },
      output: 'o',
      metadata: { a: { b: 2 }, list: [1, 2] },
      level: 'WARNING',
      statusMessage: 's',
      version: 'v1',
      model: 'm',
      modelParameters: { t: 0.5 },
      usageDetails: { input: 3 },
      costDetails: { total: 0.1 },
      completionStartTime: new Date(0),
      prompt: { name: 'p', version: 2 },
    } as const;
    const obs = startObservation('direct-write', undefined, { asType: 'generation' });
    const span = obs.otelSpan;
    const seen: [string, unknown][] = [];
    const setAttribute = span.setAttribute.bind(span);
    span.setAttribute = (key, value) => {
      seen.push([key, value]);
      return setAttribute(key, value);
    };
    // No intermediate attributes object handed to setAttributes.
    span.setAttributes = () => {
      throw new Error('setAttributes used');
    };
    obs.update(attrs);
    expect(seen).toEqual(Object.entries(toSpanAttributes(attrs)));
    obs.end();
    const hostile = startObservation('direct-write-hostile');
    hostile.update({
      input: 'kept',
      get output(): string {
        throw new Error('unreadable output');
      },
      metadata: { m: 1 },
    });
    hostile.end();
    await tracing.flush();
    const sent = only(server, 'direct-write').attributes;
    expect(sent['obs.observation.metadata.a.b']).toBe(2);
    expect(sent['obs.observation.model.parameters']).toBe('{"t":0.5}');
    const partial = only(server, 'direct-write-hostile').attributes;
    expect(partial['obs.observation.input']).toBe('kept');
    expect(String(partial['obs.observation.output'])).toMatch(/unserialisable: unreadable output/);
    expect(partial['obs.observation.metadata.m']).toBe(1);
  });

  it('an unknown type falls back to span with a warning instead of throwing', async () => {
    const logs = captureLogs();
    try {
      startObservation('weird-type', {}, { asType: 'banana' as ObservationType }).end();
    } finally {
      restoreLogger();
    }
    await tracing.flush();
    expect(attr(only(server, 'weird-type'), 'obs.observation.type')).toBe('span');
    expect(warnings(logs)).toEqual([expect.stringContaining('banana')]);
  });

  it('a generation carries model, parameters, usage, cost, completion start time and prompt', async () => {
    const input = [{ role: 'user', content: 'Hello?' }];
    const output = { role: 'assistant', content: 'Hi!' };
    const gen = startObservation(
      'llm-call',
      {
        input,
        output,
        model: 'gpt-test-1',
        modelParameters: { temperature: 0.2, max_tokens: 256, stop: ['\n'] },
        usageDetails: { input: 10, output: 4, total: 14, input_cache_read: 2 },
        costDetails: { input: 0.001, output: 0.0025, total: 0.0035 },
        completionStartTime: new Date('2025-03-04T05:06:07.089Z'),
        prompt: { name: 'greeting', version: 3 },
        level: 'WARNING',
        statusMessage: 'slow upstream',
        version: 'app-1.2.3',
        metadata: { region: 'eu', attempt: 2 },
      },
      { asType: 'generation' },
    );
    gen.end();
    await tracing.flush();
    const span = only(server, 'llm-call');
    expect(span.attributes).toMatchObject({
      'obs.observation.type': 'generation',
      'obs.observation.input': JSON.stringify(input),
      'obs.observation.output': JSON.stringify(output),
      'obs.observation.model.name': 'gpt-test-1',
      'obs.observation.completion_start_time': '2025-03-04T05:06:07.089Z',
      'obs.observation.prompt.name': 'greeting',
      'obs.observation.prompt.version': 3,
      'obs.observation.level': 'WARNING',
      'obs.observation.status_message': 'slow upstream',
      'obs.version': 'app-1.2.3',
      'obs.observation.metadata.region': 'eu',
      'obs.observation.metadata.attempt': 2,
      'obs.environment': 'it-env',
      'obs.release': 'rel-42',
    });
    expect(JSON.parse(attr(span, 'obs.observation.model.parameters') as string)).toEqual({
      temperature: 0.2,
      max_tokens: 256,
      stop: ['\n'],
    });
    expect(JSON.parse(attr(span, 'obs.observation.usage_details') as string)).toEqual({
      input: 10,
      output: 4,
      total: 14,
      input_cache_read: 2,
    });
    expect(JSON.parse(attr(span, 'obs.observation.cost_details') as string)).toEqual({
      input: 0.001,
      output: 0.0025,
      total: 0.0035,
    });
    // Not JSON-quoted, and an integer on the wire for the prompt version.
    expect(attr(span, 'obs.observation.completion_start_time')).not.toMatch(/^"/);
    expect(typeof attr(span, 'obs.observation.prompt.version')).toBe('number');
  });

  it('an embedding carries the model fields too; completion start time accepts ISO strings and epoch ms', async () => {
    startObservation(
      'embed',
      {
        model: 'embed-small',
        modelParameters: { dimensions: 512 },
        usageDetails: { input: 7 },
        costDetails: { input: 0.00001 },
        completionStartTime: '2025-01-01T00:00:00.500Z',
        prompt: { name: 'embed-prompt', version: 1 },
      },
      { asType: 'embedding' },
    ).end();
    startObservation('epoch', { completionStartTime: Date.UTC(2024, 1, 2, 3, 4, 5, 6) }, { asType: 'generation' }).end();
    await tracing.flush();
    expect(only(server, 'embed').attributes).toMatchObject({
      'obs.observation.type': 'embedding',
      'obs.observation.model.name': 'embed-small',
      'obs.observation.model.parameters': '{"dimensions":512}',
      'obs.observation.usage_details': '{"input":7}',
      'obs.observation.cost_details': '{"input":0.00001}',
      'obs.observation.completion_start_time': '2025-01-01T00:00:00.500Z',
      'obs.observation.prompt.name': 'embed-prompt',
      'obs.observation.prompt.version': 1,
    });
    expect(attr(only(server, 'epoch'), 'obs.observation.completion_start_time')).toBe('2024-02-02T03:04:05.006Z');
  });

  it('flattens observation metadata by dotted path, keeping numbers, booleans and primitive arrays typed', async () => {
    startObservation('meta', {
      metadata: {
        a: { b: 1, c: { d: true } },
        ratio: 0.25,
        name: 'x',
        tags: ['t1', 't2'],
        nums: [1, 2, 3],
        mixed: [1, 'two'],
        objs: [{ k: 1 }],
        nothing: null,
      },
    }).end();
    await tracing.flush();
    const span = only(server, 'meta');
    expect(span.attributes).toMatchObject({
      'obs.observation.metadata.a.b': 1,
      'obs.observation.metadata.a.c.d': true,
      'obs.observation.metadata.ratio': 0.25,
      'obs.observation.metadata.name': 'x',
      'obs.observation.metadata.tags': ['t1', 't2'],
      'obs.observation.metadata.nums': [1, 2, 3],
      'obs.observation.metadata.mixed': '[1,"two"]',
      'obs.observation.metadata.objs': '[{"k":1}]',
    });
    expect(span.attributes).not.toHaveProperty('obs.observation.metadata.nothing');
    expect(span.attributes).not.toHaveProperty('obs.observation.metadata');
  });

  it('serialises unserialisable input without throwing: circular refs and BigInt become placeholders, the rest survives', async () => {
    const input: Record<string, unknown> = { keep: 'me', n: 1, big: 10n };
    input.self = input;
    startObservation('odd-input', { input, output: null }).end();
    await tracing.flush();
    const span = only(server, 'odd-input');
    const parsed = JSON.parse(attr(span, 'obs.observation.input') as string);
    expect(parsed).toMatchObject({ keep: 'me', n: 1 });
    expect(typeof parsed.big).toBe('string');
    expect(parsed.big).toContain('10');
    expect(typeof parsed.self).toBe('string');
    // null output is omitted, not "null".
    expect(span.attributes).not.toHaveProperty('obs.observation.output');
  });

  it('update() and updateActiveObservation() set input, output, metadata, level and model fields after start', async () => {
    await startActiveObservation('active', async (obs) => {
      obs.update({ input: { q: 'what?' } });
      await Promise.resolve();
      updateActiveObservation({ output: 'answer', metadata: { step: 2 }, level: 'DEBUG' });
      updateActiveObservation({ model: 'm-late', usageDetails: { total: 3 } }, { asType: 'generation' });
    });
    const plain = startObservation('updated');
    plain.update({ output: { ok: true }, statusMessage: 'done', version: 'v9' });
    plain.end();
    await tracing.flush();
    expect(only(server, 'active').attributes).toMatchObject({
      'obs.observation.input': '{"q":"what?"}',
      'obs.observation.output': 'answer',
      'obs.observation.metadata.step': 2,
      'obs.observation.level': 'DEBUG',
      'obs.observation.model.name': 'm-late',
      'obs.observation.usage_details': '{"total":3}',
      'obs.observation.type': 'generation',
    });
    expect(only(server, 'updated').attributes).toMatchObject({
      'obs.observation.output': '{"ok":true}',
      'obs.observation.status_message': 'done',
      'obs.version': 'v9',
    });
  });

  it('an observation may name its own environment, overriding the processor default', async () => {
    startObservation('own-env', { environment: 'canary' }).end();
    await tracing.flush();
    expect(attr(only(server, 'own-env'), 'obs.environment')).toBe('canary');
    expect(attr(only(server, 'own-env'), 'obs.release')).toBe('rel-42');
  });

  it('never sends obs.trace.input / obs.trace.output', async () => {
    await startActiveObservation('root-io', (root) => {
      root.update({ input: 'trace input', output: 'trace output' });
    });
    await tracing.flush();
    const span = only(server, 'root-io');
    expect(attr(span, 'obs.observation.input')).toBe('trace input');
    expect(Object.keys(span.attributes).filter((k) => k.startsWith('obs.trace.'))).toEqual([]);
  });
});

describe('trace attributes (wire contract 2.2)', () => {
  it('propagates user, session, name, de-duplicated tags, version and flattened typed metadata', async () => {
    await propagateAttributes(
      {
        userId: 'user-1',
        sessionId: 'session-1',
        traceName: 'checkout',
        tags: ['beta', 'eu', 'beta'],
        version: '2.0.0',
        metadata: { plan: 'pro', seats: 3, trial: false, org: { id: 'org-7', tier: { level: 2 } } },
      },
      () =>
        startActiveObservation('traced', async () => {
          startObservation('traced-child', {}, { asType: 'tool' }).end();
        }),
    );
    await tracing.flush();
    for (const name of ['traced', 'traced-child']) {
      const span = only(server, name);
      expect(span.attributes, name).toMatchObject({
        'user.id': 'user-1',
        'session.id': 'session-1',
        'obs.trace.name': 'checkout',
        'obs.trace.tags': ['beta', 'eu'],
        'obs.version': '2.0.0',
        'obs.trace.metadata.plan': 'pro',
        'obs.trace.metadata.seats': 3,
        'obs.trace.metadata.trial': false,
        'obs.trace.metadata.org.id': 'org-7',
        'obs.trace.metadata.org.tier.level': 2,
      });
    }
  });

  it('obs.trace.public: span.setTraceAsPublic() and setActiveTraceAsPublic() set boolean true', async () => {
    const a = startObservation('public-a');
    a.setTraceAsPublic();
    a.end();
    await startActiveObservation('public-b', async () => {
      setActiveTraceAsPublic();
    });
    startObservation('not-public').end();
    await tracing.flush();
    expect(attr(only(server, 'public-a'), 'obs.trace.public')).toBe(true);
    expect(attr(only(server, 'public-b'), 'obs.trace.public')).toBe(true);
    expect(only(server, 'not-public').attributes).not.toHaveProperty('obs.trace.public');
  });

  it('observe() records its arguments as input and its result as output', async () => {
    const add = observe(function add(a: number, b: number) {
      return a + b;
    });
    expect(add(2, 3)).toBe(5);
    await tracing.flush();
    expect(only(server, 'add').attributes).toMatchObject({
      'obs.observation.type': 'span',
      'obs.observation.input': '[2,3]',
      'obs.observation.output': '5',
    });
  });
});
