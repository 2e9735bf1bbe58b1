import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';
import { providerProjects, sharedReporters } from '../../vitest.shared.js';

// Nest needs decorator metadata (`design:paramtypes`), which esbuild does not emit: SWC compiles
// the tests with the decorator settings of tsconfig.json (Nest's documented vitest setup).
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    // Every test on both tracer providers (obs's light one, OpenTelemetry's SDK one).
    projects: providerProjects(['test/**/*.test.ts']),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});
