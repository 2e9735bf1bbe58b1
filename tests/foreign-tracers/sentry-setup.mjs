// Sentry initialised as its docs say (`node --import ./sentry-setup.mjs app.cjs`), the default way, or
// the documented way with ObsSpanProcessor in `openTelemetrySpanProcessors` (SENTRY_WAY=documented).
// SENTRY_PACKAGE picks the major (`@sentry/node` or the `sentry-node-11` alias). Sentry sends with
// its own transport to SENTRY_DSN, the test's local sink, which counts what arrived.
const Sentry = await import(process.env.SENTRY_PACKAGE || '@sentry/node');

const options = { dsn: process.env.SENTRY_DSN, tracesSampleRate: 1 };
if (process.env.SENTRY_WAY === 'documented') {
  const { ObsSpanProcessor } = await import('@obs/core');
  options.openTelemetrySpanProcessors = [new ObsSpanProcessor({ flushInterval: 0.05 })];
}
Sentry.init(options);
globalThis.__appExport = async () => {
  await Sentry.flush(5000);
  return [];
};
