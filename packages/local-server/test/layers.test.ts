/**
 * The layers of `src`, enforced: every import under `src` (type-only, re-exports and dynamic
 * `import()` included) is checked against the layer table of `src/README.md`, the one statement of
 * the rule (`scripts/layers.mjs` at the repository's root reads it, for `@obs/core` too). An arrow
 * up, an arrow the table does not state, a folder without a row or an import cycle fails, naming
 * the import.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { layerViolations } from '../../../scripts/layers.mjs';

it('src keeps to the layer table of src/README.md: no arrow up, no unstated arrow, no cycle', () => {
  expect(layerViolations(fileURLToPath(new URL('../src', import.meta.url)))).toEqual([]);
});
