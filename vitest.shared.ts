import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

/**
 * Reporters every workspace uses: the default one, plus a JSON file per workspace that
 * `scripts/test.mjs` sums into one closing `N passed, N failed` line.
 */
export function sharedReporters(workspaceDir: string): NonNullable<import('vitest/node').UserConfig['test']>['reporters'] {
  return ['default', ['json', { outputFile: join(root, '.test-results', `${basename(workspaceDir)}.json`) }]];
}
