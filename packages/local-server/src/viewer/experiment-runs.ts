/**
 * Experiment runs as the viewer shows them, read from the spans' `obs.experiment.*` attributes:
 * per run, its items (input, expected and actual output, trace, scores) and per-evaluator
 * averages of the items' numeric scores.
 */
import type { ObsStores } from '../stores/types.js';
import { text } from './reads.js';

/** An experiment run as the viewer shows it. */
export interface ExperimentRun {
  id: string;
  name: string;
  description: string | null;
  datasetId: string | null;
  items: Array<{
    traceId: string;
    itemId: string | null;
    input: string | null;
    expectedOutput: string | null;
    output: string | null;
    error: boolean;
    scores: Record<string, number | string>;
  }>;
  averages: Record<string, number>;
}

/** Every run, in order of its first item; items in the order they started. */
export function experimentRuns(stores: ObsStores): { data: ExperimentRun[] } {
  const runs = new Map<string, ExperimentRun>();
  const traces = stores.traces.list({ experimentsOnly: true }).data.sort((a, b) => a.start - b.start);
  for (const s of traces) {
    const root = stores.spans.spansByTrace(s.id).find((sp) => sp.attributes['obs.experiment.id'] !== undefined);
    if (!root) continue;
    const a = root.attributes;
    const id = String(a['obs.experiment.id']);
    let run = runs.get(id);
    if (!run) {
      run = {
        id,
        name: text(a['obs.experiment.name']) ?? id,
        description: text(a['obs.experiment.description']),
        datasetId: text(a['obs.experiment.dataset.id']),
        items: [],
        averages: {},
      };
      runs.set(id, run);
    }
    const itemScores = stores.scores.find({ traceId: [s.id] });
    run.items.push({
      traceId: s.id,
      itemId: text(a['obs.experiment.item.id']),
      input: text(a['obs.observation.input']),
      expectedOutput: text(a['obs.experiment.item.expected_output']),
      output: text(a['obs.observation.output']),
      error: s.error,
      scores: Object.fromEntries(itemScores.map((sc) => [String(sc['name']), sc['value'] as number | string])),
    });
  }
  for (const run of runs.values()) {
    const sums: Record<string, { total: number; n: number }> = {};
    for (const item of run.items) {
      for (const [name, value] of Object.entries(item.scores)) {
        if (typeof value !== 'number') continue;
        const agg = (sums[name] ??= { total: 0, n: 0 });
        agg.total += value;
        agg.n++;
      }
    }
    for (const [name, { total, n }] of Object.entries(sums)) run.averages[name] = total / n;
  }
  return { data: [...runs.values()] };
}
