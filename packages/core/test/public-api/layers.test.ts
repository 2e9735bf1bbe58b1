/**
 * The layers of `src`, enforced: every import under `src` (type-only, re-exports and dynamic
 * `import()` included) is checked against the layer table of `src/README.md`, the one statement
 * of the rule (`scripts/layers.mjs` reads it). An arrow up, an arrow the table does not state, a
 * folder without a row or an import cycle fails, naming the import.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, layerViolations, parseLayerTable } from '../../../../scripts/layers.mjs';

const src = fileURLToPath(new URL('../../src', import.meta.url));
const readme = readFileSync(new URL('../../src/README.md', import.meta.url), 'utf8');

describe('the layers of @obs/core', () => {
  it('src keeps to the layer table of src/README.md: no arrow up, no unstated arrow, no cycle', () => {
    expect(layerViolations(src)).toEqual([]);
  });

  it('reads the table of src/README.md, the browser door in it', () => {
    const layers = parseLayerTable(readme);
    expect(layers[0].entries).toEqual(['index.ts', 'kit.ts', 'cli.ts']);
    expect(layers.at(-1)).toEqual({ entries: ['util/'], uses: [] });
    expect(layers.find((l) => l.entries.includes('browser/'))?.uses).toEqual(['client', 'delivery', 'util']);
  });

  it('sees every form of import: multi-line, type-only, re-exports, import() and import types', () => {
    const text = [
      "import {\n  a,\n  b,\n} from './one.js';",
      "import type { T } from './two.js';",
      "export * from './three.js';",
      "export type { U } from './four.js';",
      "const m = await import(\n  './five.js'\n);",
      "type V = import('./six.js').V;",
      "import x = require('./seven.js');",
      "import { y } from 'node:fs';",
      'const s = "import { z } from \'./not-an-import.js\'";',
    ].join('\n');
    expect(importsOf('/virtual/file.ts', text).map((i) => i.specifier)).toEqual([
      './one.js',
      './two.js',
      './three.js',
      './four.js',
      './five.js',
      './six.js',
      './seven.js',
    ]);
  });
});
