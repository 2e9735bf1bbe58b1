// OpenTelemetry's NodeSDK (the SDK 2 line, `@opentelemetry/sdk-node` 0.2xx) as its docs set it up,
// with the http, undici (fetch) and express instrumentations and the app's own exporter (in memory, read at the end).
const { NodeSDK } = require('@opentelemetry/sdk-node');
const { InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { exportedSpans } = require('../consumer/otel-sdk3/exported-spans.cjs');
const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express');
const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici');

const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(exporter);
const sdk = new NodeSDK({
  serviceName: 'foreign-tracer-app',
  spanProcessors: [processor],
  instrumentations: [new HttpInstrumentation(), new UndiciInstrumentation(), new ExpressInstrumentation()],
});
sdk.start();
// The SDK's resource detection is asynchronous: the processor hands spans over once it settled.
globalThis.__appExport = async () => {
  await processor.forceFlush();
  return exportedSpans(exporter);
};
