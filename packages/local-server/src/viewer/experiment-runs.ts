/**
 * Experiment runs as the viewer shows them, read from the spans' `obs.experiment.*` attributes:
 * per run, its items (input, expected and actual output, trace, scores) and per-evaluator
 * averages of the items' numeric scores.
 */
import type { ObsStores } from '../stores/types.js';
import type { DecodedSpan } from '../types.js';
import { text } from './reads.js';

/** One item of a run. */
export interface ExperimentRunItem {
  traceId: string;
  /** What its trace cost (USD), as the trace list reads it. */
  cost: number;
  itemId: string | null;
  input: string | null;
  expectedOutput: string | null;
  output: string | null;
  error: boolean;
  scores: Record<string, number | string>;
}

/** An experiment run as the viewer shows it. */
export interface ExperimentRun {
  id: string;
  name: string;
  description: string | null;
  datasetId: string | null;
  /** The dataset's name, when the server holds a dataset with that id. */
  datasetName: string | null;
  /** When its first item started, epoch ms. */
  start: number;
  items: ExperimentRunItem[];
  averages: Record<string, number>;
  /** What its items' traces cost together (USD). */
  cost: number;
}

/** Every run, in order of its first item; items in the order they started. */
export function experimentRuns(stores: ObsStores): { data: ExperimentRun[] } {
  // Each trace's first span that carries the experiment is its item's root.
  const roots = new Map<string, DecodedSpan>();
  for (const span of stores.spans.experimentSpans()) if (!roots.has(span.traceId)) roots.set(span.traceId, span);
  const items = [...roots.values()]
    .map((root) => ({ root, summary: stores.traces.get(root.traceId) }))
    .sort((a, b) => (a.summary?.start ?? 0) - (b.summary?.start ?? 0));
  const runs = new Map<string, ExperimentRun>();
  const datasetNames = new Map(stores.datasets.datasets().map((d) => [d.id, d.name]));
  for (const { root, summary } of items) {
    const a = root.attributes;
    const id = String(a['obs.experiment.id']);
    let run = runs.get(id);
    if (!run) {
      run = {
        id,
        name: text(a['obs.experiment.name']) ?? id,
        description: text(a['obs.experiment.description']),
        datasetId: text(a['obs.experiment.dataset.id']),
        datasetName: datasetNames.get(text(a['obs.experiment.dataset.id']) ?? '') ?? null,
        start: summary?.start ?? 0,
        items: [],
        averages: {},
        cost: 0,
      };
      runs.set(id, run);
    }
    const itemScores = stores.scores.find({ traceId: [root.traceId] });
    run.cost += summary?.totalCost ?? 0;
    run.items.push({
      traceId: root.traceId,
      cost: summary?.totalCost ?? 0,
      itemId: text(a['obs.experiment.item.id']),
      input: text(a['obs.observation.input']),
      expectedOutput: text(a['obs.experiment.item.expected_output']),
      output: text(a['obs.observation.output']),
      error: summary?.error ?? false,
      scores: Object.fromEntries(itemScores.map((sc) => [String(sc['name']), sc['value'] as number | string])),
    });
  }
  for (const run of runs.values()) run.averages = averages(run.items);
  return { data: [...runs.values()] };
}

/** The mean of each evaluator's numeric scores over the items. */
export function averages(items: readonly ExperimentRunItem[]): Record<string, number> {
  const sums: Record<string, { total: number; n: number }> = {};
  for (const item of items) {
    for (const [name, value] of Object.entries(item.scores)) {
      if (typeof value !== 'number') continue;
      const agg = (sums[name] ??= { total: 0, n: 0 });
      agg.total += value;
      agg.n++;
    }
  }
  return Object.fromEntries(Object.entries(sums).map(([name, { total, n }]) => [name, total / n]));
}
