import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['evals/**/*.eval.test.ts'],
    // Seeds the `capitals` dataset; starts a local obs server when OBS_BASE_URL is not set.
    globalSetup: ['./evals/global-setup.ts'],
    // Replayed from evals/__obs_cache__/ unless told otherwise (`npm run record` records).
    env: { OBS_EVAL_CACHE: process.env.OBS_EVAL_CACHE ?? 'replay' },
  },
});
