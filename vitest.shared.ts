import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProjectInlineConfiguration, ViteUserConfig } from 'vitest/config';

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

/** Options of {@link packageConfig}: what a package's suite does differently from the rest. */
export interface PackageConfigOptions {
  /**
   * Which tests also run on OpenTelemetry's SDK provider (`providerProjects`' `sdkInclude` and
   * `sdkExclude`; default every test), or `false` for one plain project (no tracer-provider projects).
   */
  providers?: false | { include?: string[]; sdkInclude?: string[]; sdkExclude?: string[] };
  /** Test files not to run (with `providers: false`). */
  exclude?: string[];
  /** Runs once before the suite (a build the tests share). */
  globalSetup?: string[];
  /** For set-ups that start real apps or builds; default 60 s. */
  hookTimeout?: number;
  /** Vite plugins (Nest's SWC for decorator metadata). */
  plugins?: ViteUserConfig['plugins'];
}

/**
 * A package's whole vitest config: `test/**\/*.test.ts` on both tracer providers (or one plain
 * project), 30 s per test, the shared reporters, and what `options` changes. `dir` is the
 * package's folder (`import.meta.dirname`), which names its JSON report.
 */
export function packageConfig(dir: string, options: PackageConfigOptions = {}): ViteUserConfig {
  const { providers = {}, exclude, globalSetup, hookTimeout = 60_000, plugins } = options;
  const include = ['test/**/*.test.ts'];
  return {
    ...(plugins ? { plugins } : {}),
    test: {
      ...(providers === false
        ? { include, ...(exclude ? { exclude } : {}) }
        : { projects: providerProjects(providers.include ?? include, providers.sdkInclude, providers.sdkExclude) }),
      ...(globalSetup ? { globalSetup } : {}),
      testTimeout: 30_000,
      hookTimeout,
      reporters: sharedReporters(dir),
    },
  };
}
