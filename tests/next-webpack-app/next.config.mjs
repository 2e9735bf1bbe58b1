// The Next.js 16 app of tests/next-bundlers.test.ts, built with webpack (`next build --webpack`):
// instrumentation, a Node.js route handler and an Edge API route.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default {
  // The monorepo root holds node_modules (npm workspaces).
  outputFileTracingRoot: root,
  turbopack: { root },
  // Source maps beside the server bundles: the test counts the modules in each.
  experimental: { serverSourceMaps: true },
};
