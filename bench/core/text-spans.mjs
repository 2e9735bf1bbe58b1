// Spans of request traces carrying ~2.5 KB of input/output text (issue 16, item 4), made by
// @obs/core itself (built dist) and collected as the processor hands them to its exporter.
import { context, trace } from '@opentelemetry/api';
import { ObsSpanProcessor } from '@obs/core';
import { HttpObserver } from '@obs/core/http';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

const WORDS =
  'the a model answer question user assistant token context window retrieval document summary latency request response stream chunk embedding vector search index score prompt template system message tool call result error retry timeout cache hit miss batch queue export span trace'.split(
    ' ',
  );

/** ~`bytes` of English-like text, different for every `seed` (a small LCG picks the words). */
export function text(seed, bytes) {
  let x = (seed * 2654435761) >>> 0;
  let out = '';
  while (out.length < bytes) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out += `${WORDS[x % WORDS.length]}${x % 11 === 0 ? '. ' : ' '}`;
  }
  return out;
}

/** `count` finished spans: HTTP roots with ~1.25 KB of JSON input and ~1.25 KB of output, and their child. */
export async function makeTextSpans(count) {
  const collected = [];
  const processor = new ObsSpanProcessor({
    exporter: { export: (spans, cb) => (collected.push(...spans), cb({ code: 0 })), shutdown: async () => {} },
    flushAt: 100_000,
    flushInterval: 3600,
    environment: 'production',
    release: 'v1.4.2',
  });
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  provider.register();
  const tracer = trace.getTracer('bench-app');
  const observer = new HttpObserver({ traceIdHeader: false, maxCaptureBytes: 100_000 });
  let i = 0;
  while (collected.length < count) {
    if (i > count * 4 + 256) throw new Error('no spans collected: is the provider registered?');
    const req = { method: 'POST', url: `/chat/${i}`, body: { message: text(2 * i, 1250) }, query: {} };
    const ro = observer.start({ req, method: 'POST', path: `/chat/${i}` });
    context.with(ro.context, () => tracer.startSpan('answer').end());
    ro.setRoute('/chat/:id');
    ro.setInput(req.body);
    ro.setOutput({ answer: text(2 * i + 1, 1250) }, undefined, 'application/json');
    ro.finish({ statusCode: 200 });
    i++;
    if (i % 128 === 0 || collected.length + 2 * (i % 128) >= count) await processor.forceFlush();
  }
  await processor.forceFlush();
  await provider.shutdown();
  return collected.slice(0, count);
}
