// A peer's own OpenTelemetry SDK tracer provider exporting OTLP (protobuf) to the local obs
// server, registered as OpenInference's READMEs set one up (`provider.register()`: the global
// provider, W3C propagator and `AsyncLocalStorageContextManager`, so spans nest across `await`
// as obs's do). Each setup runs in a process of its own, so it carries the peer's spans only.
import { TRACES_PATH } from '@obs/core/kit';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export async function otlpProvider(obs) {
  const exporter = new OTLPTraceExporter({
    url: `${obs.baseUrl}${TRACES_PATH}`,
    headers: { authorization: `Basic ${Buffer.from(`${obs.publicKey}:${obs.secretKey}`).toString('base64')}` },
  });
  const processor = new BatchSpanProcessor(exporter, { maxQueueSize: 100_000, maxExportBatchSize: 512 });
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  provider.register();
  return { provider, flush: () => processor.forceFlush() };
}
