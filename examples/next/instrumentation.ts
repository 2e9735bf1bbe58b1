import { registerObs } from '@obs/next';

/** Runs once per server instance (Node.js and edge), before the first request. */
export function register(): void {
  // Reads OBS_BASE_URL, OBS_PUBLIC_KEY and OBS_SECRET_KEY; does nothing during `next build`.
  registerObs({ serviceName: 'next-example' });
}

/** Uncaught errors of route handlers, server components and server actions land on the request's trace. */
export { onRequestError } from '@obs/next';
