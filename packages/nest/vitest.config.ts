import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';
import { sharedReporters } from '../../vitest.shared.js';

// Nest needs decorator metadata (`design:paramtypes`), which esbuild does not emit: SWC compiles
// the tests with the decorator settings of tsconfig.json (Nest's documented vitest setup).
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});
