// What an app's own in-memory exporter received, in the shape the tests compare: this app's
// (consumer.test.ts) and the foreign-tracer setups' (foreign-tracers/*.cjs, which require it from
// here: this app is copied into a fresh folder on its own and can require nothing outside it).
function exportedSpans(exporter) {
  return exporter.getFinishedSpans().map((s) => ({
    name: s.name,
    scope: s.instrumentationScope.name,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanContext?.spanId,
    url: s.attributes['url.full'] ?? s.attributes['http.url'],
  }));
}

module.exports = { exportedSpans };
