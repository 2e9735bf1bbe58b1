// Which tracer the app runs next to obs, and in which order, is chosen at start: APP_TRACER
// (`vercel`: @vercel/otel's registerOTel exporting over OTLP; `sentry`: @sentry/nextjs's init
// sending to SENTRY_DSN, with ObsSpanProcessor in it when SENTRY_WAY=documented), TRACER_ORDER (`before` obs, the documented order, or `after` it, as an
// app that calls registerObs() first) and NO_OBS=1 (the app without obs, the tracer's baseline).
import { registerObs } from '@obs/next';

export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const obs = process.env.NO_OBS !== '1';
  const obsFirst = process.env.TRACER_ORDER === 'after';
  if (obs && obsFirst) registerObs({ serviceName: 'next-foreign-app' });
  if (process.env.APP_TRACER === 'vercel') {
    const { registerOTel } = await import('@vercel/otel');
    registerOTel({ serviceName: 'next-foreign-app' });
  } else if (process.env.APP_TRACER === 'sentry') {
    const Sentry = await import('@sentry/nextjs');
    /** @type {Parameters<typeof Sentry.init>[0]} */
    const options = { dsn: process.env.SENTRY_DSN, tracesSampleRate: 1 };
    // SENTRY_WAY=documented: obs's processor in Sentry's provider, as obs's README says for Sentry 10.
    if (process.env.SENTRY_WAY === 'documented') {
      const { ObsSpanProcessor } = await import('@obs/core');
      options.openTelemetrySpanProcessors = [new ObsSpanProcessor()];
    }
    Sentry.init(options);
  }
  if (obs && !obsFirst) registerObs({ serviceName: 'next-foreign-app' });
}

export { onRequestError } from '@obs/next';
