import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const DIR = dirname(fileURLToPath(import.meta.url));

function format(diagnostics: readonly ts.Diagnostic[]): string[] {
  return diagnostics.map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const file = d.file ? `${d.file.fileName.slice(DIR.length + 1)}:${(where?.line ?? 0) + 1}: ` : '';
    return `${file}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

function compile(): { program: ts.Program; diagnostics: readonly ts.Diagnostic[] } {
  const configPath = resolve(DIR, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, DIR, undefined, configPath);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  return { program, diagnostics: [...parsed.errors, ...ts.getPreEmitDiagnostics(program)] };
}

/**
 * A whole type check of core's declarations takes seconds alone and can take a minute on a loaded
 * 2-core machine running other suites beside it: the suite's 30 s default is no bound for it.
 */
const TYPE_CHECK_TIMEOUT_MS = 180_000;

describe('type tests (tsc --noEmit on test/types)', () => {
  it(
    'compile with zero diagnostics: every @ts-expect-error is an error, every valid call compiles',
    () => {
      const { program, diagnostics } = compile();
      expect(program.getRootFileNames()).toHaveLength(3);
      expect(format(diagnostics)).toEqual([]);
    },
    TYPE_CHECK_TIMEOUT_MS,
  );

  it('cover all 41 placeholder methods and every removed name', () => {
    const count = (file: string) => (readFileSync(resolve(DIR, file), 'utf8').match(/^\s*\/\/ @ts-expect-error/gm) ?? []).length;
    expect(count('placeholder-signatures.ts')).toBe(41 * 2 + 4);
    expect(count('removed-names.ts')).toBeGreaterThanOrEqual(16 + 4 + 7 + 2);
  });

  it(
    'an unused @ts-expect-error would fail the test (TS2578)',
    () => {
      const host = ts.createCompilerHost({ noEmit: true, strict: true });
      const file = 'virtual.ts';
      const getSourceFile = host.getSourceFile.bind(host);
      host.getSourceFile = (name, lang) =>
        name === file ? ts.createSourceFile(name, '// @ts-expect-error\nexport const ok: number = 1;\n', lang) : getSourceFile(name, lang);
      const program = ts.createProgram([file], { noEmit: true, strict: true, types: [] }, host);
      expect(ts.getPreEmitDiagnostics(program).map((d) => d.code)).toContain(2578);
    },
    TYPE_CHECK_TIMEOUT_MS,
  );
});
