// Sentry initialised first, as its docs say (`node --import ./sentry-setup.mjs app.cjs`), the default way, or the
// documented way with ObsSpanProcessor in `openTelemetrySpanProcessors` (SENTRY_WAY=documented).
// SENTRY_PACKAGE picks the major (`@sentry/node` or the `sentry-node-11` alias). The app's own
// "exporter" is Sentry's transport: it records the transactions and spans Sentry sends.
const Sentry = await import(process.env.SENTRY_PACKAGE || '@sentry/node');

const sent = [];
const transport = () => ({
  send: async (envelope) => {
    for (const [header, item] of envelope[1]) {
      // Sentry 11 streams spans (`span` items, each a list) instead of sending transactions.
      if (header.type === 'span') {
        for (const s of item.items ?? [])
          sent.push({
            name: s.name,
            spanId: s.span_id,
            parentSpanId: s.parent_span_id,
            scope: s.is_segment ? 'segment' : (s.attributes?.['sentry.origin']?.value ?? ''),
          });
        continue;
      }
      if (header.type !== 'transaction') continue;
      sent.push({
        name: item.transaction,
        spanId: item.contexts.trace.span_id,
        parentSpanId: item.contexts.trace.parent_span_id,
        scope: 'transaction',
      });
      for (const s of item.spans ?? [])
        sent.push({ name: s.description, spanId: s.span_id, parentSpanId: s.parent_span_id, scope: s.origin ?? '' });
    }
    return { statusCode: 200 };
  },
  flush: async () => true,
});
const options = { dsn: 'https://public@127.0.0.1:9/1', tracesSampleRate: 1, transport };
if (process.env.SENTRY_WAY === 'documented') {
  const { ObsSpanProcessor } = await import('@obs/core');
  options.openTelemetrySpanProcessors = [new ObsSpanProcessor({ flushInterval: 0.05 })];
}
Sentry.init(options);
globalThis.__appExport = async () => {
  await Sentry.flush(2000);
  return sent;
};
