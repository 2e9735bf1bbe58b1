/**
 * `wrapHandler` in the test's own process, against the local obs server (real OTLP), with a flush
 * interval of a minute: whatever the server holds when the wrapped handler's promise settles was
 * delivered by the invocation itself. Every trigger's naming, input and output, identify on every
 * span, the error and status rules, one child per record, callback handlers, the delivery bound.
 */
import { Writable } from 'node:stream';
import { initObs } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { wrapHandler } from '@obs/lambda';
import type {
  APIGatewayProxyEventV2WithJWTAuthorizer,
  APIGatewayProxyResultV2,
  Callback,
  Context,
  SQSEvent,
  SQSBatchResponse,
} from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import {
  albEvent,
  dynamoDbEvent,
  eventBridgeEvent,
  functionUrlEvent,
  httpApiEvent,
  kinesisEvent,
  lambdaContext,
  restApiEvent,
  s3Event,
  snsEvent,
  sqsEvent,
} from './fixtures/events.js';
import { answer } from './runtime/answer.mjs';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 60, flushOnExit: false }) });

/** The one trace the server holds, split into its root and the rest. */
function onlyTrace(count: number): { root: DecodedSpan; all: DecodedSpan[] } {
  const all = local.server.spans();
  expect(all.map((s) => s.name)).toHaveLength(count);
  expect(new Set(all.map((s) => s.traceId)).size).toBe(1);
  const roots = all.filter((s) => !s.parentSpanId || !all.some((p) => p.spanId === s.parentSpanId));
  expect(roots).toHaveLength(1);
  return { root: roots[0]!, all };
}

const json = (v: unknown) => JSON.parse(v as string) as unknown;

const chat = wrapHandler(
  async (event: APIGatewayProxyEventV2WithJWTAuthorizer, _context: Context): Promise<APIGatewayProxyResultV2> => {
    const { message } = JSON.parse(event.body ?? '{}') as { message: string };
    if (message === 'crash') throw new Error('model unavailable');
    if (message === 'busy') return { statusCode: 503, body: 'try later' };
    if (message === 'bad') return { statusCode: 422, headers: { 'content-type': 'application/json' }, body: '{"error":"empty"}' };
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answer: await answer(message) }) };
  },
  {
    identify: (event) => ({ userId: event.requestContext.authorizer.jwt.claims.sub as string, sessionId: event.headers['x-session-id'] }),
  },
);

describe('HTTP triggers', () => {
  it('HTTP API v2: named by the route key, parsed body in (redacted), parsed body out, identify on every span, all delivered when the promise settles', async () => {
    const result = await chat(httpApiEvent('POST /chat/{id}', '/chat/7', { message: 'hi', password: 'hunter2' }), lambdaContext('req-1'));
    expect(typeof result === 'object' && result.statusCode).toBe(200);
    // The trace is on the server already: nothing was flushed by the test.
    const { root, all } = onlyTrace(2);
    expect(root.name).toBe('POST /chat/{id}');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/chat/{id}',
      'url.path': '/chat/7',
      'http.response.status_code': 200,
      'user.id': 'user-1',
      'session.id': 'sess-9',
      'faas.trigger': 'http',
      'faas.invocation_id': 'req-1',
      'faas.name': 'chat-fn',
      'cloud.provider': 'aws',
      'obs.observation.metadata.requestId': 'req-1',
    });
    expect(typeof root.attributes['obs.observation.metadata.coldStart']).toBe('boolean');
    expect(json(root.attributes['obs.observation.input'])).toEqual({ message: 'hi', password: '[REDACTED]' });
    expect(json(root.attributes['obs.observation.output'])).toEqual({ answer: 'echo: hi' });
    const child = all.find((s) => s.name === 'answer')!;
    expect(child.parentSpanId).toBe(root.spanId);
    expect(child.attributes['user.id']).toBe('user-1');
    // The caller gets the trace id in a header of a copy of the result.
    expect(typeof result === 'object' && result.headers?.['x-obs-trace-id']).toBe(root.traceId);
  });

  it('a thrown error is ERROR on the root and reaches the runtime unchanged; 5xx is ERROR, 4xx the client’s', async () => {
    const error = await chat(httpApiEvent('POST /chat/{id}', '/chat/8', { message: 'crash' }), lambdaContext('req-2')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('model unavailable');
    let { root } = onlyTrace(1);
    expect(root.attributes).toMatchObject({ 'obs.observation.level': 'ERROR', 'obs.observation.status_message': 'model unavailable' });
    expect(root.status.code).toBe(2);

    local.server.reset();
    await chat(httpApiEvent('POST /chat/{id}', '/chat/8', { message: 'busy' }), lambdaContext('req-3'));
    ({ root } = onlyTrace(1));
    expect(root.attributes).toMatchObject({
      'obs.observation.level': 'ERROR',
      'http.response.status_code': 503,
      'obs.observation.output': 'try later',
    });

    local.server.reset();
    await chat(httpApiEvent('POST /chat/{id}', '/chat/8', { message: 'bad' }), lambdaContext('req-4'));
    ({ root } = onlyTrace(1));
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['http.response.status_code']).toBe(422);
    expect(json(root.attributes['obs.observation.output'])).toEqual({ error: 'empty' });
  });

  it('REST v1: named by method and resource, a base64 form body parsed, the caller’s traceparent continued', async () => {
    const handler = wrapHandler(async (_event: unknown, _context: Context) => ({ statusCode: 201, body: 'created' }));
    await handler(restApiEvent('POST', '/orders/{id}', '/orders/12', 'item=book&qty=2', true), lambdaContext('req-5'));
    const { root } = onlyTrace(1);
    expect(root.name).toBe('POST /orders/{id}');
    expect(root.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(root.parentSpanId).toBe('b7ad6b7169203331');
    expect(json(root.attributes['obs.observation.input'])).toEqual({ item: 'book', qty: '2' });
    expect(root.attributes['obs.observation.output']).toBe('created');
  });

  it('a function URL and a load balancer: `METHOD path`; no body records the query', async () => {
    const handler = wrapHandler(async (event: { rawPath?: string; path?: string }, _context: Context) => ({
      statusCode: 200,
      body: `at ${event.rawPath ?? event.path}`,
    }));
    await handler(functionUrlEvent('GET', '/status/today'), lambdaContext('req-6'));
    let { root } = onlyTrace(1);
    expect(root.name).toBe('GET /status/today');
    expect(root.attributes['http.route']).toBeUndefined();
    expect(json(root.attributes['obs.observation.input'])).toEqual({ lang: 'en' });
    local.server.reset();
    await handler(albEvent('PUT', '/items/3', '{"name":"lamp"}'), lambdaContext('req-7'));
    ({ root } = onlyTrace(1));
    expect(root.name).toBe('PUT /items/3');
    expect(json(root.attributes['obs.observation.input'])).toEqual({ name: 'lamp' });
    expect(root.attributes['obs.observation.output']).toBe('at /items/3');
  });

  it('an HTTP API result without a status code is the body of a 200, recorded as the value; health checks are not traced', async () => {
    const handler = wrapHandler(async (_event: unknown, _context: Context) => ({ answer: 42 }));
    const result = await handler(httpApiEvent('GET /answer', '/answer'), lambdaContext('req-8'));
    expect(result).toEqual({ answer: 42 });
    const { root } = onlyTrace(1);
    expect(json(root.attributes['obs.observation.output'])).toEqual({ answer: 42 });
    expect(root.attributes['http.response.status_code']).toBe(200);
    local.server.reset();
    expect(await handler(httpApiEvent('GET /health', '/health'), lambdaContext('req-9'))).toEqual({ answer: 42 });
    expect(local.server.spans()).toHaveLength(0);
  });
});

describe('event triggers', () => {
  it('SQS: `sqs <queue>`, one child per message with its parsed body, the failures of a partial batch response marked', async () => {
    const handler = wrapHandler(
      async (event: SQSEvent, _context: Context): Promise<SQSBatchResponse> => {
        for (const record of event.Records) await answer(record.body);
        return { batchItemFailures: [{ itemIdentifier: 'msg-1' }] };
      },
      { identify: (event) => ({ userId: (JSON.parse(event.Records[0]!.body) as { user: string }).user }) },
    );
    await handler(sqsEvent('orders', [{ user: 'u-q', n: 1 }, { user: 'u-q', n: 2 }, 'plain text']), lambdaContext('req-10'));
    const { root, all } = onlyTrace(7);
    expect(root.name).toBe('sqs orders');
    expect(root.attributes).toMatchObject({ 'faas.trigger': 'pubsub', 'user.id': 'u-q' });
    expect(root.attributes['http.request.method']).toBeUndefined();
    expect(json(root.attributes['obs.observation.output'])).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-1' }] });
    const messages = all.filter((s) => s.name.startsWith('message ')).sort((a, b) => a.name.localeCompare(b.name));
    expect(messages.map((m) => m.name)).toEqual(['message msg-0', 'message msg-1', 'message msg-2']);
    for (const m of messages) {
      expect(m.parentSpanId).toBe(root.spanId);
      expect(m.attributes['user.id']).toBe('u-q');
    }
    expect(json(messages[0]!.attributes['obs.observation.input'])).toEqual({ user: 'u-q', n: 1 });
    expect(messages[2]!.attributes['obs.observation.input']).toBe('plain text');
    expect(messages.map((m) => m.attributes['obs.observation.level'])).toEqual([undefined, 'ERROR', undefined]);
    expect(all.filter((s) => s.name === 'answer' && s.parentSpanId === root.spanId)).toHaveLength(3);
  });

  it.each([
    ['SNS', snsEvent('alerts', { level: 'high' }), 'sns alerts', ['message sns-1'], 'pubsub'],
    ['S3', s3Event('uploads', ['a.png', 'b.png']), 's3 uploads', ['ObjectCreated:Put a.png', 'ObjectCreated:Put b.png'], 'datasource'],
    ['DynamoDB', dynamoDbEvent('orders'), 'dynamodb orders', ['INSERT ddb-1'], 'datasource'],
    ['Kinesis', kinesisEvent('clicks', { page: '/' }), 'kinesis clicks', ['record 4960'], 'datasource'],
    ['EventBridge', eventBridgeEvent('Order Placed', { id: 'o-1' }), 'eventbridge Order Placed', [], 'pubsub'],
    ['a schedule', eventBridgeEvent('Scheduled Event', {}, 'aws.events'), 'eventbridge Scheduled Event', [], 'timer'],
    ['anything else', { task: 'reindex' }, 'chat-fn', [], 'other'],
  ])('%s: named from the event, one child per record', async (_what, event, name, children, trigger) => {
    const handler = wrapHandler(async (_event: unknown, _context: Context) => 'done');
    await handler(event, lambdaContext('req-11'));
    const { root, all } = onlyTrace(1 + children.length);
    expect(root.name).toBe(name);
    expect(root.attributes['faas.trigger']).toBe(trigger);
    expect(root.attributes['obs.observation.output']).toBe('done');
    expect(json(root.attributes['obs.observation.input'])).toEqual(event);
    expect(
      all
        .filter((s) => s !== root)
        .map((s) => s.name)
        .sort(),
    ).toEqual(children);
  });
});

describe('handler styles and delivery', () => {
  it('a callback handler: the runtime’s callback is called once the trace is delivered, errors included', async () => {
    const handler = wrapHandler((event: { n: number }, _context: Context, callback: Callback<string>) => {
      void answer(String(event.n)).then((text) => (event.n < 0 ? callback(new Error('negative')) : callback(null, text)));
    });
    // The spans the server holds when the runtime's callback runs.
    const call = (n: number, id: string) =>
      new Promise<{ args: unknown[]; delivered: number }>((resolve) => {
        handler({ n }, lambdaContext(id), (...args) => resolve({ args, delivered: local.server.spans().length }));
      });
    expect(await call(1, 'req-12')).toEqual({ args: [null, 'echo: 1'], delivered: 2 });
    expect(onlyTrace(2).root.attributes['obs.observation.output']).toBe('echo: 1');
    local.server.reset();
    const failed = await call(-1, 'req-13');
    expect((failed.args[0] as Error).message).toBe('negative');
    expect(failed.delivered).toBe(2);
    expect(onlyTrace(2).root.attributes['obs.observation.level']).toBe('ERROR');
  });

  it('a streaming handler wrapped after `streamifyResponse`: the runtime still sees it streaming; a binary stream is described by its size', async () => {
    const STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
    const streaming = Object.assign(
      async (_event: unknown, stream: Writable & { setContentType(type: string): void }, _context: Context) => {
        stream.setContentType('image/png');
        stream.write(Buffer.alloc(700));
        stream.end(Buffer.alloc(324));
      },
      { [STREAMING]: 'response' },
    );
    const handler = wrapHandler(streaming);
    expect((handler as unknown as Record<symbol, unknown>)[STREAMING]).toBe('response');
    const received: Buffer[] = [];
    const stream = Object.assign(
      new Writable({
        write(chunk: Buffer, _encoding, cb) {
          received.push(chunk);
          cb();
        },
      }),
      {
        setContentType: () => undefined,
      },
    );
    await handler(functionUrlEvent('GET', '/image'), stream, lambdaContext('req-15'));
    expect(Buffer.concat(received)).toHaveLength(1024);
    const { root } = onlyTrace(1);
    expect(root.name).toBe('GET /image');
    expect(root.attributes['obs.observation.output']).toBe('[binary 1024 bytes, image/png]');
  });

  it('the delivery wait ends before the function’s timeout, less the margin: one line says what is left, which arrives later', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    local.server.injectFault({ path: '/api/public/otel/v1/traces', delayMs: 1500, durationMs: 5000 });
    try {
      const handler = wrapHandler(async (_event: unknown, _context: Context) => answer('late'), { flushMarginMs: 1700 });
      const started = performance.now();
      await handler({ task: 'slow export' }, lambdaContext('req-14', 2000));
      const ms = performance.now() - started;
      // 2,000 ms left, 1,700 kept for the runtime: the wait ends at about 300 ms. A wait that ignored
      // the margin would last until the export's answer (1,500 ms) and say nothing was left.
      expect(ms).toBeLessThan(1500);
      const lines = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('not delivered'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/2 spans, 0 scores not delivered yet/);
      // They were sent, not dropped: they arrive with the delayed answer.
      await local.server.waitForSpans(2);
    } finally {
      warn.mockRestore();
    }
  });
});
