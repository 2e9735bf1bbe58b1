import { defineConfig } from 'vitest/config';
import { providerProjects, sharedReporters } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // Every test on obs's light tracer provider; the Node.js ones on OpenTelemetry's SDK provider
    // too (Bun, Deno and workerd start their own processes: once is enough for them).
    projects: providerProjects(['test/**/*.test.ts'], ['test/node.test.ts']),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});
