import type { Instrumentation } from 'next';

/**
 * Runs once per server instance, before the first request. obs is loaded on the Node.js runtime
 * only: on the edge runtime a `withObs` route sets obs up itself, and Next bundles this file into
 * every Edge function next to the route, so a static import here would put a second copy of
 * @obs/core (and of @opentelemetry/api) into each Edge function.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { registerObs } = await import('@obs/next');
  // An app that already traces with @vercel/otel (here: when an OTLP endpoint is configured)
  // registers it first; obs attaches to its provider and keeps one obs tree per request, while
  // the app's own OTLP export goes on unchanged.
  if (process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) (await import('@vercel/otel')).registerOTel({ serviceName: 'next-example' });
  // Reads OBS_BASE_URL, OBS_PUBLIC_KEY and OBS_SECRET_KEY; does nothing during `next build`.
  registerObs({ serviceName: 'next-example' });
}

/** Uncaught errors of route handlers, server components and server actions land on the request's trace. */
export const onRequestError: Instrumentation.onRequestError = async (...args) => {
  if (process.env.NEXT_RUNTIME === 'nodejs') await (await import('@obs/next')).onRequestError(...args);
};
