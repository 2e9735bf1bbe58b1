// What a foreign-tracer setup's own in-memory exporter received, in the shape the tests compare.
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
