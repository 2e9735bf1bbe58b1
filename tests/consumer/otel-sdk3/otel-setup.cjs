// OpenTelemetry's NodeSDK on the SDK 3 line (`@opentelemetry/sdk-node` 0.300, `@opentelemetry/api`
// 1.10) as its docs set it up: http and express instrumentations, the app's own exporter (in memory).
const { NodeSDK } = require('@opentelemetry/sdk-node');
const { InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace');
const { exportedSpans } = require('./exported-spans.cjs');
const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express');

const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor({ exporter }); // SDK 3: processors take an options object
new NodeSDK({
  serviceName: 'sdk3-app',
  spanProcessors: [processor],
  instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation()],
}).start();

/** What the app's exporter received (once the SDK's asynchronous resource detection let the processor hand it over). */
module.exports = async () => {
  await processor.forceFlush();
  return exportedSpans(exporter);
};
