/**
 * Two or more runs of one dataset side by side: one row per dataset item (its input and expected
 * output once), in each run's column that run's output, scores and trace; per run, each
 * evaluator's average.
 */
import type { ObsStores } from '../stores/types.js';
import { type ExperimentRunItem, experimentRuns } from './experiment-runs.js';

/** What the comparison page shows. */
export interface RunComparison {
  runs: Array<{
    id: string;
    name: string;
    datasetId: string | null;
    datasetName: string | null;
    items: number;
    averages: Record<string, number>;
    cost: number;
  }>;
  /** Every evaluator any run has, sorted. */
  evaluators: string[];
  rows: Array<{
    itemId: string | null;
    input: string | null;
    expectedOutput: string | null;
    /** Run id -> that run's result for the item (absent when the run did not have it). */
    results: Record<string, Omit<ExperimentRunItem, 'input' | 'expectedOutput' | 'itemId'>>;
  }>;
  /** Ids asked for that are no run. */
  missing: string[];
}

/** The runs with these ids, compared item by item (items matched by dataset item id, else by input). */
export function compareRuns(stores: ObsStores, ids: readonly string[]): RunComparison {
  const all = experimentRuns(stores).data;
  const runs = ids.flatMap((id) => all.filter((r) => r.id === id));
  const rows = new Map<string, RunComparison['rows'][number]>();
  for (const run of runs) {
    for (const { itemId, input, expectedOutput, ...result } of run.items) {
      const key = itemId !== null ? `id:${itemId}` : `input:${input}`;
      let row = rows.get(key);
      if (!row) {
        row = { itemId, input, expectedOutput, results: {} };
        rows.set(key, row);
      }
      row.results[run.id] ??= result;
    }
  }
  return {
    runs: runs.map((r) => ({
      id: r.id,
      name: r.name,
      datasetId: r.datasetId,
      datasetName: r.datasetName,
      items: r.items.length,
      averages: r.averages,
      cost: r.cost,
    })),
    evaluators: [...new Set(runs.flatMap((r) => r.items.flatMap((i) => Object.keys(i.scores))))].sort(),
    rows: [...rows.values()],
    missing: ids.filter((id) => !all.some((r) => r.id === id)),
  };
}
