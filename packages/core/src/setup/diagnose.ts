/**
 * `diagnose()`: checks an obs set-up end to end and says what to fix: keys and base URL present
 * and without stray whitespace, the server reachable, the keys accepted, the clock sane. Used by
 * `npx @obs/core doctor`; never throws. The checks load on the first call (a dynamic import), so
 * an app that never asks pays nothing for them at start.
 */
import type { Diagnosis, DiagnoseOptions } from './doctor-checks.js';

export type { Diagnosis, DiagnosisCheck, DiagnoseOptions } from './doctor-checks.js';

/**
 * Checks the configuration against the server it names. Resolves with every check's result;
 * with `print`, also writes them (✓/✗ and the fix) to the console or the given function.
 */
export async function diagnose(options: DiagnoseOptions = {}): Promise<Diagnosis> {
  const { runChecks } = await import('./doctor-checks.js');
  const result = await runChecks(options);
  if (options.print) printDiagnosis(result, typeof options.print === 'function' ? options.print : (line) => console.log(line));
  return result;
}

/** Writes a diagnosis: one line per check, then what to fix (the all-clear only when every check passed). */
export function printDiagnosis(d: Diagnosis, write: (line: string) => void): void {
  for (const c of d.checks) write(`${c.ok ? '✓' : '✗'} ${c.name}: ${c.message}`);
  const failed = d.checks.filter((c) => !c.ok);
  if (failed.length === 0) write('obs is set up: spans and scores will reach the server.');
  else {
    write('\nTo fix:');
    for (const c of failed) write(`- ${c.fix ?? `the ${c.name} check failed: ${c.message}`}`);
  }
}
