/**
 * `observe()` with sync, Promise, async generator and ReadableStream results: the observation
 * lasts as long as the result, the output is the reassembled text, early exits are marked.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { getActiveSpanId, observe, startObservation } from '../../src/index.js';
import { attr, only, sleep, TRACING_KEYS, tracingInit } from './harness.js';

const { server, handle: tracing } = await setupObsServer({ ...TRACING_KEYS, init: tracingInit() }).ready;

const encoder = new TextEncoder();

/** The span `name` once flushed, asserted to be a stream that failed: ERROR with `message`, what came before it as its output. */
async function failedStream(name: string, message: string, output: string) {
  await tracing.flush();
  const span = only(server, name);
  expect(span.attributes).toMatchObject({
    'obs.observation.level': 'ERROR',
    'obs.observation.status_message': message,
    'obs.observation.output': output,
  });
  expect(span.status.code).toBe(2);
  return span;
}

/** True when the server has received a span with this name. */
async function arrived(name: string): Promise<boolean> {
  await tracing.flush();
  return server.spansByName(name).length > 0;
}

describe('observe: plain results', () => {
  it('sync: returns the value, keeps `this`, makes the observation active while fn runs', async () => {
    let activeInside: string | undefined;
    const counter = {
      base: 40,
      add: observe(
        function add(this: { base: number }, n: number) {
          activeInside = getActiveSpanId();
          return this.base + n;
        },
        { asType: 'tool' },
      ),
    };
    expect(counter.add(2)).toBe(42);
    expect(counter.add.name).toBe('add');
    await tracing.flush();
    const span = only(server, 'add');
    expect(activeInside).toBe(span.spanId);
    expect(span.attributes).toMatchObject({
      'obs.observation.type': 'tool',
      'obs.observation.input': '2',
      'obs.observation.output': '42',
    });
  });

  it('Promise: the observation ends when it resolves, output is the resolved value', async () => {
    const fetchUser = observe(
      async (id: string, opts: { full: boolean }) => {
        await sleep(30);
        return { id, name: 'Ada', full: opts.full };
      },
      { name: 'fetch-user', asType: 'retriever' },
    );
    const started = Date.now();
    const user = await fetchUser('u1', { full: true });
    expect(user).toEqual({ id: 'u1', name: 'Ada', full: true });
    await tracing.flush();
    const span = only(server, 'fetch-user');
    expect(span.durationMs).toBeGreaterThanOrEqual(25);
    expect(span.endTime.getTime()).toBeGreaterThanOrEqual(started + 25);
    expect(span.attributes).toMatchObject({
      'obs.observation.type': 'retriever',
      'obs.observation.input': '["u1",{"full":true}]',
      'obs.observation.output': '{"id":"u1","name":"Ada","full":true}',
    });
  });

  it('captureInput/captureOutput false record neither; extra attributes are set at start', async () => {
    const secretive = observe((password: string) => `hash(${password})`, {
      name: 'secretive',
      captureInput: false,
      captureOutput: false,
      attributes: { metadata: { purpose: 'auth' } },
    });
    expect(secretive('hunter2')).toBe('hash(hunter2)');
    await tracing.flush();
    const span = only(server, 'secretive');
    expect(span.attributes).not.toHaveProperty('obs.observation.input');
    expect(span.attributes).not.toHaveProperty('obs.observation.output');
    expect(attr(span, 'obs.observation.metadata.purpose')).toBe('auth');
    expect(JSON.stringify(span.attributes)).not.toContain('hunter2');
  });
});

describe('observe: async generators', () => {
  async function* tokens(): AsyncGenerator<string> {
    yield 'Hel';
    await sleep(2);
    yield 'lo, ';
    yield 'world';
  }

  it('fully consumed: ends only after the last chunk; output is the reassembled text', async () => {
    const stream = observe(tokens, { name: 'gen-full', asType: 'generation' });
    const it = stream();
    const first = await it.next();
    expect(first).toEqual({ value: 'Hel', done: false });
    // Not ended yet: nothing on the server for it after a full flush.
    expect(await arrived('gen-full')).toBe(false);
    const rest: string[] = [];
    for await (const chunk of it) rest.push(chunk);
    expect(rest).toEqual(['lo, ', 'world']);
    await tracing.flush();
    const span = only(server, 'gen-full');
    expect(span.attributes).toMatchObject({
      'obs.observation.type': 'generation',
      'obs.observation.output': 'Hello, world',
    });
    expect(span.attributes).not.toHaveProperty('obs.observation.metadata.cancelled');
    expect(span.attributes).not.toHaveProperty('obs.observation.level');
  });

  it('captureOutput false: chunks pass through, the span ends with the stream, no output is recorded', async () => {
    const quiet = observe(tokens, { name: 'gen-quiet', captureOutput: false });
    const chunks: string[] = [];
    for await (const chunk of quiet()) chunks.push(chunk);
    expect(chunks).toEqual(['Hel', 'lo, ', 'world']);
    await tracing.flush();
    expect(only(server, 'gen-quiet').attributes).not.toHaveProperty('obs.observation.output');
  });

  it('the consumer breaking early ends the span, marks it cancelled, and runs the generator finally', async () => {
    let finallyRan = false;
    const stream = observe(
      async function* () {
        try {
          yield 'one ';
          yield 'two ';
          yield 'three';
        } finally {
          finallyRan = true;
        }
      },
      { name: 'gen-break' },
    );
    const seen: string[] = [];
    for await (const chunk of stream()) {
      seen.push(chunk);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(['one ', 'two ']);
    expect(finallyRan).toBe(true);
    await tracing.flush();
    const span = only(server, 'gen-break');
    expect(attr(span, 'obs.observation.metadata.cancelled')).toBe(true);
    expect(attr(span, 'obs.observation.output')).toBe('one two ');
  });

  it('spans created inside the generator body (after awaits, any tracer) nest under the observe span', async () => {
    const plain = trace.getTracer('plain');
    const stream = observe(
      async function* agentLoop() {
        startObservation('gen-step-1', {}, { asType: 'tool' }).end();
        yield 'a';
        await sleep(2);
        plain.startSpan('gen-plain-step').end();
        yield 'b';
        await Promise.resolve();
        startObservation('gen-step-2').end();
      },
      { asType: 'agent' },
    );
    // Consumed from a different context (no active span) with pauses between steps.
    const out: string[] = [];
    for await (const c of stream()) {
      out.push(c);
      await sleep(1);
    }
    expect(out).toEqual(['a', 'b']);
    await tracing.flush();
    const parent = only(server, 'agentLoop');
    expect(parent.attributes['obs.observation.type']).toBe('agent');
    for (const name of ['gen-step-1', 'gen-plain-step', 'gen-step-2']) {
      const child = only(server, name);
      expect(child.parentSpanId, name).toBe(parent.spanId);
      expect(child.traceId, name).toBe(parent.traceId);
    }
  });

  it('a generator that throws: the error reaches the consumer unchanged and the span is ERROR', async () => {
    const err = new Error('stream broke');
    const stream = observe(
      async function* () {
        yield 'partial ';
        throw err;
      },
      { name: 'gen-error' },
    );
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const c of stream()) seen.push(c);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBe(err);
    expect(seen).toEqual(['partial ']);
    const span = await failedStream('gen-error', 'stream broke', 'partial ');
    expect(span.events.map((e) => e.name)).toContain('exception');
  });

  it('non-text chunks are collected as an array; an async function resolving to a generator is followed too', async () => {
    const objects = observe(async function* objs() {
      yield { delta: 1 };
      yield { delta: 2 };
    });
    const collected: unknown[] = [];
    for await (const o of objects()) collected.push(o);
    expect(collected).toEqual([{ delta: 1 }, { delta: 2 }]);

    const lazy = observe(
      async () => {
        await sleep(1);
        return tokens();
      },
      { name: 'gen-lazy' },
    );
    const text: string[] = [];
    for await (const t of await lazy()) text.push(t);
    expect(text.join('')).toBe('Hello, world');
    await tracing.flush();
    expect(JSON.parse(attr(only(server, 'objs'), 'obs.observation.output') as string)).toEqual([{ delta: 1 }, { delta: 2 }]);
    expect(attr(only(server, 'gen-lazy'), 'obs.observation.output')).toBe('Hello, world');
  });
});

describe('observe: ReadableStream', () => {
  function byteStream(chunks: string[], failAfter?: Error): ReadableStream<Uint8Array> {
    let i = 0;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        await sleep(1);
        if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]));
        else if (failAfter) controller.error(failAfter);
        else controller.close();
      },
    });
  }

  it('fully read: chunks pass through unchanged; output is the reassembled text (UTF-8 split across chunks)', async () => {
    // "é" is two bytes; split it across two chunks to check the decoder streams.
    const bytes = encoder.encode('café ok');
    const stream = observe(
      () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes.slice(0, 4));
            controller.enqueue(bytes.slice(4));
            controller.close();
          },
        }),
      { name: 'rs-full' },
    );
    const result = stream();
    expect(result).toBeInstanceOf(ReadableStream);
    expect(await arrived('rs-full')).toBe(false);
    expect(await new Response(result).text()).toBe('café ok');
    await tracing.flush();
    const span = only(server, 'rs-full');
    expect(attr(span, 'obs.observation.output')).toBe('café ok');
    expect(span.attributes).not.toHaveProperty('obs.observation.metadata.cancelled');
  });

  it('a Promise of a stream (async handler returning a Response body) lasts until the stream is read', async () => {
    const handler = observe(
      async () => {
        await sleep(1);
        return byteStream(['data: 1\n\n', 'data: 2\n\n']);
      },
      { name: 'rs-async' },
    );
    const body = await handler();
    expect(await arrived('rs-async')).toBe(false);
    expect(await new Response(body).text()).toBe('data: 1\n\ndata: 2\n\n');
    await tracing.flush();
    expect(attr(only(server, 'rs-async'), 'obs.observation.output')).toBe('data: 1\n\ndata: 2\n\n');
  });

  it('errored: the reader gets the error and the span is ERROR with the text so far', async () => {
    const err = new Error('upstream reset');
    const stream = observe(() => byteStream(['part-1 '], err), { name: 'rs-error' })();
    const reader = stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('part-1 ');
    await expect(reader.read()).rejects.toBe(err);
    await failedStream('rs-error', 'upstream reset', 'part-1 ');
  });

  it('cancelled by the reader: the span ends, is marked cancelled, and the source is cancelled', async () => {
    let sourceCancelled: unknown;
    const stream = observe(
      () =>
        new ReadableStream<string>({
          pull(controller) {
            controller.enqueue('tick ');
          },
          cancel(reason) {
            sourceCancelled = reason;
          },
        }),
      { name: 'rs-cancel' },
    )();
    const reader = stream.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel('client went away');
    expect(sourceCancelled).toBe('client went away');
    await tracing.flush();
    const span = only(server, 'rs-cancel');
    expect(attr(span, 'obs.observation.metadata.cancelled')).toBe(true);
    expect(attr(span, 'obs.observation.output')).toBe('tick tick ');
  });
});
