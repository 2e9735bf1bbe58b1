// The OpenTelemetry SDK stack a Node.js app starts with: NodeTracerProvider, BatchSpanProcessor,
// the OTLP protobuf exporter (to the same local obs server), one span, shutdown (its flush).
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

globalThis.coldMark?.('imported');
const auth = Buffer.from(`${process.env.OBS_PUBLIC_KEY}:${process.env.OBS_SECRET_KEY}`).toString('base64');
const exporter = new OTLPTraceExporter({
  url: `${process.env.OBS_BASE_URL}/api/public/otel/v1/traces`,
  headers: { authorization: `Basic ${auth}` },
});
const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
provider.register();
globalThis.coldMark?.('init');
const span = trace.getTracer('cold-start-otel').startSpan('cold-start');
span.setAttribute('input', 'one');
span.end();
globalThis.coldMark?.('span');
await provider.shutdown();
