// The standard OpenTelemetry setup (`node --require ./otel-setup.cjs app.cjs`): a NodeTracerProvider
// with the app's own exporter, http + express instrumentations. OTEL_SCENARIO=plain registers the
// provider alone (no instrumentations).
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
const { InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express');

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
if (process.env.OTEL_SCENARIO !== 'plain') {
  registerInstrumentations({ instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation()] });
}
globalThis.__appExport = async () =>
  exporter.getFinishedSpans().map((s) => ({
    name: s.name,
    scope: s.instrumentationScope.name,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanContext?.spanId,
  }));
