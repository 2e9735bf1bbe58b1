// A stand-in for AWS Lambda's Node.js runtime (aws-lambda-nodejs-runtime-interface-client, whose
// `Runtime.js`, `CallbackContext.js`, `ResponseStream.js`, `HttpResponseStream.js` and
// `UserFunction.js` it follows): it loads a handler module, takes invocations one at a time (a JSON
// line on stdin stands for the Runtime API's `next`), calls the handler as the runtime does (a
// returned promise answers at once; a callback waits for the empty event loop unless
// `callbackWaitsForEmptyEventLoop` is false; a streaming handler gets a response stream with
// `setContentType` and the HTTP prelude hook), and freezes the instant the invocation settles: the
// answer goes to the freeze harness and the process stops itself (SIGSTOP) until the next one.
//
// Usage: node lambda-runtime.mjs <handler module> <export name>
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { settleAndFreeze } from '@obs/local-server/freeze';

const HANDLER_STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
const HANDLER_HIGHWATERMARK = Symbol.for('aws.lambda.runtime.handler.streaming.highWaterMark');

// biome-ignore lint/complexity/noStaticOnlyClass: the runtime's own shape (`awslambda.HttpResponseStream.from`)
class HttpResponseStream {
  static from(underlyingStream, prelude) {
    underlyingStream.setContentType('application/vnd.awslambda.http-integration-response');
    const metadataPrelude = JSON.stringify(prelude);
    underlyingStream._onBeforeFirstWrite = (write) => {
      write(metadataPrelude);
      write(new Uint8Array(8));
    };
    return underlyingStream;
  }
}

globalThis.awslambda = {
  streamifyResponse: (handler, options) => {
    handler[HANDLER_STREAMING] = 'response';
    if (typeof options?.highWaterMark === 'number') handler[HANDLER_HIGHWATERMARK] = Number.parseInt(options.highWaterMark, 10);
    return handler;
  },
  HttpResponseStream,
};

const [modulePath, exportName = 'handler'] = process.argv.slice(2);
const handler = (await import(pathToFileURL(modulePath).href))[exportName];
if (typeof handler !== 'function') throw new Error(`${modulePath} exports no function ${exportName}`);
const streaming = handler[HANDLER_STREAMING] === 'response';

const errorOf = (e) => ({ errorType: e?.name ?? 'Error', errorMessage: e instanceof Error ? e.message : String(e) });

/** The context object the runtime passes (InvokeContext.attachEnvironmentData + the callback context). */
function lambdaContext(inv, extra) {
  const deadline = Date.now() + (inv.timeoutMs ?? 3000);
  const fn = process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'obs-test-function';
  return Object.assign(extra, {
    functionName: fn,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:123456789012:function:${fn}`,
    memoryLimitInMB: '128',
    awsRequestId: inv.id,
    logGroupName: `/aws/lambda/${fn}`,
    logStreamName: '2026/01/01/[$LATEST]0123456789abcdef',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  });
}

/** A non-streaming invocation, answered as Runtime.handleOnceNonStreaming answers it. */
function invoke(inv) {
  return new Promise((resolve) => {
    let waitForEmptyEventLoop = true;
    let finished = false;
    const finish = (outcome) => {
      if (finished) return;
      finished = true;
      resolve(outcome);
    };
    const done = (err, result) => (err !== undefined && err !== null ? finish({ error: errorOf(err) }) : finish({ result }));
    const context = lambdaContext(inv, {
      get callbackWaitsForEmptyEventLoop() {
        return waitForEmptyEventLoop;
      },
      set callbackWaitsForEmptyEventLoop(value) {
        waitForEmptyEventLoop = value;
      },
      succeed: (result) => done(null, result),
      fail: (err) => done(err ?? 'handled'),
      done,
    });
    const callback = (err, result) => {
      if ((err !== undefined && err !== null) || !waitForEmptyEventLoop) return done(err, result);
      // The runtime answers once the event loop has nothing left to do.
      process.once('beforeExit', () => setImmediate(() => done(null, result)));
    };
    try {
      const result = handler(inv.event, context, callback);
      if (result && typeof result.then === 'function')
        result.then(
          (v) => done(null, v),
          (e) => done(e ?? 'handled'),
        );
    } catch (err) {
      done(err);
    }
  });
}

/** The runtime's response stream: a writable with `setContentType` and `_onBeforeFirstWrite`, as the handler sees it. */
function responseStream(sink) {
  let ready = true;
  const inner = new Writable({
    write(chunk, _encoding, cb) {
      sink.chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  const write = inner.write.bind(inner);
  inner.write = function (chunk, encoding, cb) {
    if (typeof chunk !== 'string' && !Buffer.isBuffer(chunk) && chunk?.constructor !== Uint8Array) chunk = JSON.stringify(chunk);
    if (ready && typeof this._onBeforeFirstWrite === 'function') this._onBeforeFirstWrite((ch) => write(ch));
    ready = false;
    return write(chunk, encoding, cb);
  };
  inner.setContentType = (type) => {
    if (!ready) throw new Error('Cannot set content-type, too late.');
    sink.contentType = type;
  };
  // ResponseStream.writableStreamOnly: the handler gets only these, bound to the inner stream.
  const fns = ['cork', 'destroy', 'end', 'uncork', 'write', 'addListener', 'emit', 'eventNames', 'getMaxListeners', 'listenerCount'];
  fns.push('listeners', 'off', 'on', 'once', 'prependListener', 'prependOnceListener', 'rawListeners', 'removeAllListeners');
  fns.push('removeListener', 'setMaxListeners', 'setContentType');
  const stream = Object.fromEntries(fns.map((fn) => [fn, inner[fn].bind(inner)]));
  for (const prop of ['destroyed', 'writable', '_onBeforeFirstWrite'])
    Object.defineProperty(stream, prop, { get: () => inner[prop], set: (v) => (inner[prop] = v) });
  for (const prop of [
    'writableFinished',
    'writableObjectMode',
    'writableBuffer',
    'writableEnded',
    'writableNeedDrain',
    'writableHighWaterMark',
  ])
    Object.defineProperty(stream, prop, { get: () => inner[prop] });
  return { stream, inner };
}

/** A streaming invocation, as Runtime.handleOnceStreaming runs it. */
async function invokeStreaming(inv) {
  const sink = { chunks: [], contentType: 'application/octet-stream' };
  const { stream, inner } = responseStream(sink);
  const context = lambdaContext(inv, {});
  const answer = () => ({ body: Buffer.concat(sink.chunks).toString('base64'), contentType: sink.contentType });
  try {
    const result = handler(inv.event, stream, context);
    if (!result || typeof result.then !== 'function')
      return { error: errorOf('Streaming does not support non-async handlers.'), ...answer() };
    await result;
    if (!inner.writableFinished) await new Promise((r) => setImmediate(r));
    if (!inner.writableFinished) return { error: errorOf('Response stream is not finished.'), ...answer() };
    return { result: null, ...answer() };
  } catch (err) {
    return { error: errorOf(err), ...answer() };
  }
}

// The invocation loop. Between invocations stdin is not listened to (the runtime's `next` is not
// called before an invocation settles), so a callback handler's "empty event loop" can happen.
process.stdin.setEncoding('utf8');
let buffered = '';
const nextLine = () =>
  new Promise((resolve) => {
    const take = () => {
      const nl = buffered.indexOf('\n');
      if (nl === -1) return false;
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      process.stdin.off('data', onData);
      process.stdin.pause();
      process.stdin.unref();
      resolve(line);
      return true;
    };
    const onData = (d) => {
      buffered += d;
      take();
    };
    if (take()) return;
    process.stdin.ref();
    process.stdin.on('data', onData);
    process.stdin.resume();
  });

// The init phase is over: the harness may send the first invocation (no freeze here).
writeSync(3, `${JSON.stringify({ type: 'ready', streaming })}\n`);
for (;;) {
  const line = await nextLine();
  const inv = JSON.parse(line);
  const started = performance.now();
  const outcome = streaming ? await invokeStreaming(inv) : await invoke(inv);
  settleAndFreeze({ type: 'settled', id: inv.id, ms: performance.now() - started, ...outcome });
}
