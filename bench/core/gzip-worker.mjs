// Worker of export-text.mjs's worker-thread variants: gzips (level 1) bytes it is handed, or
// encodes span data cloned to it and gzips that; posts the body back (transferred).
import { gzipSync } from 'node:zlib';
import { parentPort } from 'node:worker_threads';

const { encodeTraceExportRequest } = await import(new URL('../../packages/core/dist/export/otlp-proto-encoder.js', import.meta.url));

parentPort.on('message', ({ id, bytes, spans }) => {
  const raw = bytes ?? encodeTraceExportRequest(spans.map(revive));
  const out = gzipSync(raw, { level: 1 });
  parentPort.postMessage({ id, out }, [out.buffer]);
});

/** What structured clone drops from a span (prototype getters) put back as the encoder reads them. */
function revive(s) {
  return { ...s, spanContext: () => s.ctx, parentSpanContext: s.parentSpanContext };
}
