import { defineConfig } from 'vitest/config';
import { providerProjects, sharedReporters } from '../vitest.shared.js';

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**'],
    // Every test on obs's light tracer provider; the AI SDK readings (the export pipeline's GenAI
    // reading of real AI SDK spans) and those of LLM instrumentations' spans (OpenInference, GenAI
    // conventions) on OpenTelemetry's SDK provider too.
    projects: providerProjects(['**/*.test.ts'], ['ai-sdk/**/*.test.ts', 'instrumentations/**/*.test.ts']),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});
