// The hello-world Express 5 app under test, one variant per child process (see run.mjs):
//   plain   Express 5, no tracing (the child span is OpenTelemetry's no-op)
//   obs     + app.use(obsMiddleware()) exporting to the local obs server (OBS_* env, defaults)
//   obs-identify   obsMiddleware({ identify }) returning a user and session: the full request
//                  trace of issue 16 (input, output, identify, one child, exported)
//   obs-noexport   obsMiddleware() with an exporter that drops the spans (export's share)
//   obs-nocapture  obsMiddleware({ captureInput: false, captureOutput: false })
//   core-floor     a hand-made minimal middleware on core's HttpObserver (start, context, route,
//                  input, finish): what any adapter on core costs at least, for comparison
//   otel-root      one bare OpenTelemetry SDK root span per request (NodeTracerProvider), active during
//                  the handlers, and the child span, both exported by core's processor and exporter;
//                  no request observation
//   otel-noio      the same two spans as bare OpenTelemetry SDK spans with no span processor (no
//                  export, no obs code): what item 1 of issue 16 names "a bare SDK span pair without IO"
//   light-root     the same two spans from obs's own tracer provider (what initObs() registers when no
//                  other provider is): the floor of obs's spans, processor and export, no request observation
//   light-noexport light-root with an exporter that drops the spans: the floor without export
//   als     AsyncLocalStorage.run() per request, nothing else: what following a request across
//           await costs by itself (Node 22 runs an async hook per promise and async resource)
//   otel    + @opentelemetry/instrumentation-http and -express, BatchSpanProcessor, OTLP protobuf
//           exporter (gzip) to the same local obs server
// Every variant runs the same handler: POST /chat/:id with express.json(), one child span, { answer }.
import { createRequire } from 'node:module';
import { trace } from '@opentelemetry/api';
import { dropAll } from '../lib/drop-exporter.mjs';
import { injectChat } from '../lib/inject-chat.mjs';

const require = createRequire(import.meta.url);
const variant = process.argv[2] ?? 'plain';
let shutdown = async () => {};
let flush = async () => {};

if (variant === 'otel') {
  const { NodeTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express');
  const auth = Buffer.from(`${process.env.OBS_PUBLIC_KEY}:${process.env.OBS_SECRET_KEY}`).toString('base64');
  const exporter = new OTLPTraceExporter({
    url: `${process.env.OBS_BASE_URL}/api/public/otel/v1/traces`,
    headers: { authorization: `Basic ${auth}` },
    compression: 'gzip',
  });
  const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register();
  registerInstrumentations({ instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation()] });
  flush = () => provider.forceFlush();
  shutdown = () => provider.shutdown();
}

// Required after the instrumentations are registered, so they can patch it.
const express = require('express');
const obsExpress = ['obs', 'obs-identify', 'obs-nocapture', 'obs-noexport'].includes(variant) ? await import('@obs/express') : undefined;
const obsCore =
  ['core-floor', 'otel-root', 'light-root', 'light-noexport'].includes(variant) || obsExpress ? await import('@obs/core') : undefined;
const obsHttp = variant === 'core-floor' ? await import('@obs/core/http') : undefined;
const obsKit = ['otel-root', 'light-root', 'light-noexport'].includes(variant) ? await import('@obs/core/kit') : undefined;

const tracer = trace.getTracer('bench-app');
const app = express();
if (variant === 'obs') app.use(obsExpress.obsMiddleware());
if (variant === 'obs-identify') app.use(obsExpress.obsMiddleware({ identify: () => ({ userId: 'user-1', sessionId: 'session-1' }) }));
// Everything obsMiddleware() does, with spans handed to an exporter that drops them: what export costs.
if (variant === 'obs-noexport') app.use(obsExpress.obsMiddleware({ obs: { exporter: dropAll } }));
if (variant === 'obs-nocapture') app.use(obsExpress.obsMiddleware({ captureInput: false, captureOutput: false }));
if (variant === 'core-floor') {
  const { context } = await import('@opentelemetry/api');
  obsCore.initObs();
  const observer = new obsHttp.HttpObserver({ traceIdHeader: false });
  app.use((req, res, next) => {
    const ro = observer.start({ req, method: req.method, path: req.path });
    res.once('close', () => {
      ro.setRoute(req.route?.path);
      ro.setInput(req.body, req.query);
      ro.finish({ statusCode: res.statusCode });
    });
    context.with(ro.context, next);
  });
}
if (variant === 'otel-root') {
  // What any OpenTelemetry-SDK-based tracer pays at least for the same two spans: one root span
  // per request, active while the handlers run (in an obs trace, so the child span is exported
  // too), ended when the response closes; core's processor and exporter, none of the request
  // observation (no input, output, naming or identify).
  const { context, trace: api } = await import('@opentelemetry/api');
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
  const provider = new NodeTracerProvider({ spanProcessors: [new obsCore.ObsSpanProcessor()] });
  provider.register();
  flush = () => provider.forceFlush();
  shutdown = () => provider.shutdown();
  const t = api.getTracer('obs-sdk');
  app.use((req, res, next) => {
    const span = t.startSpan(`POST ${req.path}`);
    res.once('close', () => span.end());
    context.with(obsKit.contextWithAttributes(api.setSpan(context.active(), span), {}, { setOnActiveSpan: false }), next);
  });
}
if (variant === 'otel-noio') {
  const { context, trace: api } = await import('@opentelemetry/api');
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
  const provider = new NodeTracerProvider();
  provider.register();
  const t = api.getTracer('bench');
  app.use((req, res, next) => {
    const span = t.startSpan(`POST ${req.path}`);
    res.once('close', () => span.end());
    context.with(api.setSpan(context.active(), span), next);
  });
}
if (variant === 'light-root' || variant === 'light-noexport') {
  const { context, trace: api } = await import('@opentelemetry/api');
  obsCore.initObs(variant === 'light-noexport' ? { exporter: dropAll } : {});
  const t = api.getTracer('obs-sdk');
  app.use((req, res, next) => {
    const span = t.startSpan(`POST ${req.path}`);
    res.once('close', () => span.end());
    context.with(obsKit.contextWithAttributes(api.setSpan(context.active(), span), {}, { setOnActiveSpan: false }), next);
  });
}
if (variant === 'als') {
  const { AsyncLocalStorage } = await import('node:async_hooks');
  const als = new AsyncLocalStorage();
  app.use((req, _res, next) => als.run({ req }, next));
}
app.use(express.json());
app.post('/chat/:id', (req, res) => {
  const span = tracer.startSpan('answer');
  const answer = `echo ${req.params.id}: ${req.body.message}`;
  span.end();
  res.json({ answer });
});

const server = app.listen(0, '127.0.0.1', () => {
  process.send({ port: server.address().port });
});

if (obsCore && variant !== 'otel-root') {
  // The middleware sets tracing up on the first request; flush whatever handle exists then.
  flush = async () => obsCore.getObsHandle()?.flush();
  shutdown = async () => obsCore.getObsHandle()?.shutdown();
}

process.on('message', async (msg) => {
  if (msg?.inject) {
    process.send({ injected: await injectChat(app, msg.inject, 200) });
  } else if (msg === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ cpu: user + system });
  } else if (msg === 'flush') {
    await flush();
    process.send({ flushed: true });
  } else if (msg === 'close') {
    server.close();
    await shutdown();
    process.exit(0);
  }
});
