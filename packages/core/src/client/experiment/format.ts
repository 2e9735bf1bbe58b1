/** The readable summary of a run (`result.format()`). */
import { describeError, summarize } from '../util/describe.js';
import type { Evaluation, ExperimentItemResult } from './types.js';

interface Summary {
  name: string;
  runName: string;
  experimentId: string;
  experimentUrl: string | undefined;
  itemResults: ExperimentItemResult[];
  runEvaluations: Evaluation[];
}

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

function round(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/** Averages per evaluation name (numeric and boolean values; others are counted). */
function averages(results: ExperimentItemResult[]): string[] {
  const byName = new Map<string, { sum: number; numeric: number; count: number }>();
  for (const r of results) {
    for (const e of r.evaluations) {
      const entry = byName.get(e.name) ?? { sum: 0, numeric: 0, count: 0 };
      const n = numeric(e.value);
      if (n !== undefined) {
        entry.sum += n;
        entry.numeric++;
      }
      entry.count++;
      byName.set(e.name, entry);
    }
  }
  return [...byName].map(([name, e]) =>
    e.numeric > 0 ? `  ${name}: avg ${round(e.sum / e.numeric)} over ${e.numeric} item(s)` : `  ${name}: ${e.count} non-numeric value(s)`,
  );
}

/** Several lines: the run, items and failures, per-evaluator averages, run evaluations, the URL. */
export function formatExperiment(s: Summary, options: { includeItemResults?: boolean } = {}): string {
  const failures = s.itemResults.filter((r) => r.error !== undefined);
  const lines = [
    `Experiment "${s.name}", run "${s.runName}" (${s.experimentId})`,
    `Items: ${s.itemResults.length} run, ${s.itemResults.length - failures.length} succeeded, ${failures.length} failed`,
  ];
  const avg = averages(s.itemResults);
  lines.push(avg.length ? 'Evaluations:' : 'Evaluations: none', ...avg);
  if (s.runEvaluations.length) {
    lines.push('Run evaluations:');
    for (const e of s.runEvaluations)
      lines.push(`  ${e.name}: ${typeof e.value === 'number' ? round(e.value) : String(e.value)}${e.comment ? ` (${e.comment})` : ''}`);
  }
  if (failures.length) {
    lines.push('Failures:');
    for (const r of failures) lines.push(`  item ${s.itemResults.indexOf(r)} (trace ${r.traceId}): ${describeError(r.error)}`);
  }
  if (options.includeItemResults) {
    lines.push('Items:');
    s.itemResults.forEach((r, i) => {
      const evals = r.evaluations.map((e) => `${e.name}=${String(e.value)}`).join(', ');
      lines.push(
        `  ${i}: input ${summarize(r.item?.input, 80)} -> ${r.error !== undefined ? 'ERROR' : summarize(r.output, 80)}${evals ? ` [${evals}]` : ''}`,
      );
    });
  }
  lines.push(`URL: ${s.experimentUrl ?? '(unavailable: the project id could not be read)'}`);
  return lines.join('\n');
}
