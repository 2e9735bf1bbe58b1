import { defineConfig } from 'vitest/config';
import { sharedReporters } from '../vitest.shared.js';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});
