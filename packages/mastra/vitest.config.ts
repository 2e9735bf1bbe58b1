import { packageConfig, providerProjects } from '../../vitest.shared.js';

// Every test on both tracer providers (obs's light one, OpenTelemetry's SDK one), against the
// current `@mastra/core` and again against the peer range's floor (the `mastra-core-floor` alias,
// 1.16.0). `@mastra/observability` is inlined so that its own `@mastra/core` imports reach the
// floor too: what an app on 1.16.0 runs (npm gives it the latest observability, whose peer range
// starts at 1.16).
const config = packageConfig(import.meta.dirname);
const floor = providerProjects(['test/**/*.test.ts']).map((project) => ({
  ...project,
  resolve: { alias: [{ find: /^@mastra\/core(\/.*)?$/, replacement: 'mastra-core-floor$1' }] },
  test: {
    ...project.test,
    name: `${project.test?.name}@mastra/core-floor`,
    env: { ...project.test?.env, MASTRA_CORE_FLOOR: '1' },
    server: { deps: { inline: ['@mastra/observability'] } },
  },
}));
config.test?.projects?.push(...floor);
export default config;
