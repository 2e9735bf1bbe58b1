/**
 * The two doors of `@obs/core`, pinned: the root exports what application code types (api.md)
 * and nothing else; `@obs/core/http` and `@obs/core/kit` hold what adapters build on. A change to
 * any list is a change to a public API: update the committed list in the same commit, on purpose.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));
const committed = (name: string) =>
  readFileSync(new URL(`./${name}.txt`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));

const ENTRIES = { root: 'index.ts', http: 'http/index.ts', kit: 'kit.ts' } as const;

/** Every name an entry exports, as `name value` or `name type`, sorted. */
function exportList(entry: string): string[] {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(entry);
  const module = file && checker.getSymbolAtLocation(file);
  if (!module) throw new Error(`no module symbol for ${entry}`);
  return checker
    .getExportsOfModule(module)
    .map((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return `${s.getName()} ${target.flags & ts.SymbolFlags.Value ? 'value' : 'type'}`;
    })
    .sort();
}

describe('public API of @obs/core', () => {
  for (const [name, entry] of Object.entries(ENTRIES)) {
    it(`${name === 'root' ? '@obs/core' : `@obs/core/${name}`} exports exactly the committed list (test/public-api/${name}.txt)`, () => {
      expect(exportList(src(entry))).toEqual(committed(name));
    });
  }

  it('the root exports no adapter plumbing', () => {
    const root = new Set(committed('root').map((l) => l.split(' ')[0]));
    for (const internal of [
      'HttpObserver',
      'RequestObservation',
      'NodeHttpObserver',
      'logger',
      'errorMessage',
      'TextCapture',
      'warnMisplacedOptions',
    ]) {
      expect(root.has(internal), internal).toBe(false);
    }
  });
});
