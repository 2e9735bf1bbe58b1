// What the packages' layer tests share (packages/core/test/public-api/layers.test.ts,
// packages/local-server/test/layers.test.ts): a source folder's README states its layers as a
// table, and this reads that table and checks every relative import under the folder against it.
// The README is the one statement of the rule; nothing here repeats it. Imports are read by
// TypeScript's scanner, so multi-line, type-only (`import type`, `import('x').T`), re-exports and
// dynamic `import()` all count.
//
// The table: the first Markdown table whose header has the columns `Folder` and `Uses`. Each row is
// one layer, from the top; its first cell names the layer's entries in backticks (`setup/` a folder,
// `index.ts` a file at the top of the source folder), its `Uses` cell the entries of the rows below
// that it may import (comma-separated names, with or without the trailing `/` or backticks), or
// `everything below`, or `nothing`. An entry imports freely within itself and from the other
// entries of its row; an import of an entry of a row above is an arrow up, of an entry below that
// `Uses` does not name an unstated arrow, and any loop of imports between files is a cycle.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * @typedef {{ entries: string[]; uses: string[] | 'below' }} Layer
 *   `entries`: folder names end in `/`; `uses`: entry names as the table writes them, or every row below.
 */

/** The layers of the table in `readme` (Markdown text), from the top. */
export function parseLayerTable(readme) {
  const lines = readme.split('\n');
  const cells = (line) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  const header = lines.findIndex((l) => l.trim().startsWith('|') && cells(l).includes('Folder') && cells(l).includes('Uses'));
  if (header < 0) throw new Error('no layer table (a Markdown table with the columns Folder and Uses)');
  const names = cells(lines[header]);
  const [folderCol, usesCol] = [names.indexOf('Folder'), names.indexOf('Uses')];
  const layers = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.trim().startsWith('|')) break;
    const row = cells(line);
    const entries = [...row[folderCol].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    if (entries.length === 0) throw new Error(`layer table row without an entry in backticks: ${line.trim()}`);
    const uses = row[usesCol].replaceAll('`', '').trim();
    layers.push({
      entries,
      uses:
        uses === 'everything below'
          ? 'below'
          : uses === 'nothing'
            ? []
            : uses
                .split(',')
                .map((u) => u.trim())
                .filter(Boolean),
    });
  }
  return layers;
}

/**
 * The relative module specifiers a source file names, each with its line (1-based). TypeScript's
 * own pre-processing scanner (what its language service uses to find a file's imports): it reads
 * tokens, not lines, so a specifier in a string or a comment is none and a multi-line import is one.
 */
export function importsOf(file, text = readFileSync(file, 'utf8')) {
  const { importedFiles } = ts.preProcessFile(text, true, false);
  const lineStarts = ts.computeLineStarts(text);
  return importedFiles
    .filter((f) => f.fileName.startsWith('.'))
    .map((f) => ({ specifier: f.fileName, line: ts.computeLineAndCharacterOfPosition(lineStarts, f.pos).line + 1 }));
}

/** The file of `files` (a set of paths) a relative specifier names (`./x.js` is `./x.ts`), or undefined. */
function resolveSpecifier(from, specifier, files) {
  const target = resolve(dirname(from), specifier);
  const stem = target.replace(/\.(m|c)?js$/, '');
  return [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, target, join(target, 'index.ts')].find((c) => files.has(c));
}

const SOURCE = /\.(ts|tsx|mts)$/;
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));

/**
 * Every breach of the layer table of `srcDir/README.md` by the imports of the source files under
 * `srcDir`, one line each naming the importing file, its line and the import; empty when none.
 */
export function layerViolations(dir) {
  const srcDir = resolve(dir);
  const layers = parseLayerTable(readFileSync(join(srcDir, 'README.md'), 'utf8'));
  const rowOf = new Map();
  layers.forEach((layer, row) => {
    for (const e of layer.entries) rowOf.set(e, row);
  });
  const bare = (entry) => entry.replace(/\/$/, '');
  const problems = [];
  for (const entry of rowOf.keys()) {
    if (!existsSync(join(srcDir, entry)))
      problems.push(`the layer table names \`${entry}\`, which is not in ${relative(process.cwd(), srcDir) || '.'}`);
  }
  for (const layer of layers) {
    if (layer.uses === 'below') continue;
    const row = layers.indexOf(layer);
    for (const u of layer.uses) {
      const used = [...rowOf.keys()].find((e) => bare(e) === bare(u));
      if (used === undefined)
        problems.push(`the layer table's row of \`${layer.entries.join('`, `')}\` uses \`${u}\`, which is no entry of the table`);
      else if (rowOf.get(used) <= row)
        problems.push(`the layer table's row of \`${layer.entries.join('`, `')}\` uses \`${u}\`, which is not below it`);
    }
  }

  /** The table entry a file belongs to: its top folder (`setup/`) or, at the top, its name. */
  const entryOf = (file) => {
    const [first, ...rest] = relative(srcDir, file).split(sep);
    return rest.length > 0 ? `${first}/` : first;
  };
  const all = walk(srcDir);
  const known = new Set(all);
  const files = all.filter((f) => SOURCE.test(f) && !f.endsWith('.d.ts'));
  const name = (file) => relative(srcDir, file).split(sep).join('/');
  /** file -> the files it imports, with how. */
  const graph = new Map();
  const unlisted = new Set();
  for (const file of files) {
    const from = entryOf(file);
    if (!rowOf.has(from)) {
      if (!unlisted.has(from)) {
        unlisted.add(from);
        problems.push(
          `${name(file)}: \`${from}\` has no row in the layer table of README.md (add one where it sits among the layers: what it holds, and what it uses)`,
        );
      }
      continue;
    }
    const edges = [];
    for (const { specifier, line } of importsOf(file)) {
      const target = resolveSpecifier(file, specifier, known);
      const at = `${name(file)}:${line} imports '${specifier}'`;
      if (target === undefined || !target.startsWith(srcDir + sep)) {
        problems.push(`${at}, which is no source file under ${relative(process.cwd(), srcDir) || '.'}`);
        continue;
      }
      edges.push({ target, at });
      const to = entryOf(target);
      if (to === from || !rowOf.has(to)) continue;
      const [a, b] = [rowOf.get(from), rowOf.get(to)];
      if (b < a) problems.push(`${at}: an arrow up (\`${from}\` sits below \`${to}\` in the layer table)`);
      else if (b > a && layers[a].uses !== 'below' && !layers[a].uses.some((u) => bare(u) === bare(to))) {
        problems.push(
          `${at}: \`${to}\` is not among the layers the row of \`${from}\` uses (add it to the Uses column if the arrow is meant)`,
        );
      }
    }
    graph.set(file, edges);
  }
  for (const cycle of cycles(graph)) problems.push(`an import cycle: ${cycle.join(' -> ')}`);
  return problems;
}

/** One loop of imports per strongly connected group of files (Tarjan), as the imports that make it. */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const connect = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const { target } of graph.get(v) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(v, Math.min(low.get(v), low.get(target)));
      } else if (onStack.has(target)) low.set(v, Math.min(low.get(v), index.get(target)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      for (let w = stack.pop(); ; w = stack.pop()) {
        onStack.delete(w);
        group.push(w);
        if (w === v) break;
      }
      const selfLoop = (graph.get(v) ?? []).some((e) => e.target === v);
      if (group.length > 1 || selfLoop) groups.push(new Set(group));
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  // A path around each group: from its first file, follow imports inside the group until one
  // comes back to a file already on the path.
  return groups.map((group) => {
    const path = [];
    const seen = new Map();
    let v = [...group][0];
    while (!seen.has(v)) {
      seen.set(v, path.length);
      const edge = graph.get(v).find((e) => group.has(e.target));
      path.push(edge.at);
      v = edge.target;
    }
    return path.slice(seen.get(v));
  });
}
