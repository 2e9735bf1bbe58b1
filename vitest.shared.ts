import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProjectInlineConfiguration } from 'vitest/config';

const root = dirname(fileURLToPath(import.meta.url));

/**
 * Reporters every workspace uses: the default one, plus a JSON file per workspace that
 * `scripts/test.mjs` sums into one closing `N passed, N failed` line.
 */
export function sharedReporters(workspaceDir: string): NonNullable<import('vitest/node').UserConfig['test']>['reporters'] {
  return ['default', ['json', { outputFile: join(root, '.test-results', `${basename(workspaceDir)}.json`) }]];
}

/**
 * The two test projects of a package whose tests trace through `initObs`: every test on obs's own
 * light tracer provider, and `sdkInclude` again on OpenTelemetry's SDK provider (the spans obs
 * sees whenever it attaches to Sentry or an OpenTelemetry SDK: `initObs` builds obs's provider as
 * a `NodeTracerProvider` there, packages/core/test/support/sdk-provider.ts), so that path cannot
 * rot unseen.
 */
export function providerProjects(
  include: string[],
  sdkInclude: string[] = include,
  sdkExclude: string[] = [],
): TestProjectInlineConfiguration[] {
  return [
    { extends: true, test: { name: 'light-provider', include } },
    {
      extends: true,
      test: {
        name: 'sdk-provider',
        include: sdkInclude,
        exclude: sdkExclude,
        env: { OBS_TEST_PROVIDER: 'sdk' },
        setupFiles: [join(root, 'packages/core/test/support/sdk-provider.ts')],
      },
    },
  ];
}
