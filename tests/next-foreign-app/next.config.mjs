// The Next.js 16 app of tests/next-foreign.test.ts, built once with Sentry's build wrapper (as
// @sentry/nextjs's docs set an app up); which tracer runs is chosen at start (instrumentation.js).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withSentryConfig } from '@sentry/nextjs/config';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default withSentryConfig(
  {
    // The monorepo root holds node_modules (npm workspaces).
    outputFileTracingRoot: root,
    turbopack: { root },
  },
  { silent: true, telemetry: false, sourcemaps: { disable: true } },
);
