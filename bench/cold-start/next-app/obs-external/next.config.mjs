import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The monorepo root holds node_modules (npm workspaces).
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

// The obs app with obs's packages loaded by Node.js from node_modules (one copy in the process)
// instead of bundled by Next.js into both the instrumentation's and the route's chunks.
export default {
  outputFileTracingRoot: root,
  turbopack: { root },
  serverExternalPackages: ['@obs/core', '@obs/next', '@opentelemetry/api'],
};
