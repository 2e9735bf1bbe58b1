import { registerObs } from '@obs/next';
import { registerOTel } from '@vercel/otel';

/** Runs once per server instance (Node.js and edge), before the first request. */
export function register(): void {
  // An app that already traces with @vercel/otel (here: when an OTLP endpoint is configured)
  // registers it first; obs attaches to its provider and keeps one obs tree per request, while
  // the app's own OTLP export goes on unchanged.
  if (process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) registerOTel({ serviceName: 'next-example' });
  // Reads OBS_BASE_URL, OBS_PUBLIC_KEY and OBS_SECRET_KEY; does nothing during `next build`.
  registerObs({ serviceName: 'next-example' });
}

/** Uncaught errors of route handlers, server components and server actions land on the request's trace. */
export { onRequestError } from '@obs/next';
