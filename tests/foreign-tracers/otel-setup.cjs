// The standard OpenTelemetry setup (`node --require ./otel-setup.cjs app.cjs`): a NodeTracerProvider
// with the app's own exporter, and the instrumentations named in OTEL_INSTRUMENTATIONS (default
// `http,undici,express` (undici: fetch); also `nestjs` and `fastify`, the latter Fastify's own `@fastify/otel`, which
// hooks every Fastify instance as it is created). OTEL_SCENARIO=plain registers the provider alone.
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
const { InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { exportedSpans } = require('../consumer/otel-sdk3/exported-spans.cjs');
const { registerInstrumentations } = require('@opentelemetry/instrumentation');

const available = {
  http: () => new (require('@opentelemetry/instrumentation-http').HttpInstrumentation)(),
  undici: () => new (require('@opentelemetry/instrumentation-undici').UndiciInstrumentation)(),
  express: () => new (require('@opentelemetry/instrumentation-express').ExpressInstrumentation)(),
  nestjs: () => new (require('@opentelemetry/instrumentation-nestjs-core').NestInstrumentation)(),
  fastify: () => new (require('@fastify/otel').FastifyOtelInstrumentation)({ registerOnInitialization: true }),
};

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
if (process.env.OTEL_SCENARIO !== 'plain') {
  const names = (process.env.OTEL_INSTRUMENTATIONS ?? 'http,undici,express').split(',');
  registerInstrumentations({ instrumentations: names.map((name) => available[name]()) });
}
globalThis.__appExport = async () => {
  await provider.forceFlush();
  return exportedSpans(exporter);
};
