/** One item of a run: its `experiment-item-run` root observation, the task inside it, then its evaluators and scores. */
import { context, isSpanContextValid, trace, type Attributes } from '@opentelemetry/api';
import { ObsAttributes } from '../../tracing/attributes.js';
import { logger } from '../../util/logger.js';
import { toAttributeString } from '../../util/serialize.js';
import { recordErrorOnSpan } from '../../tracing/record-error.js';
import { activeContextFor, startObservation } from '../../tracing/start.js';
import type { ScoreManager } from '../scores/manager.js';
import { evaluationScore, evaluatorName, runTracedEvaluator } from './evaluations.js';
import type { Evaluation, Evaluator, ExperimentDataItem, ExperimentItemResult, ExperimentTask } from './types.js';

/** Name of every item's root observation. */
export const ITEM_ROOT_NAME = 'experiment-item-run';

/** What every item of one run shares. */
export interface ItemRunSettings<Item extends ExperimentDataItem> {
  experimentId: string;
  /** The experiment's (dataset run's) name: the run name. */
  runName: string;
  /** The experiment name the user gave; the trace name of every item. */
  name: string;
  description: string | undefined;
  metadata: Record<string, unknown> | undefined;
  /** Set for dataset runs. */
  datasetId: string | undefined;
  /** Set when a dataset version applies (contract 2.5). */
  datasetVersion: string | undefined;
  task: ExperimentTask<Item>;
  evaluators: Evaluator<Item>[];
  /** Where evaluations go as scores; `undefined` for a local run (obs not configured). */
  score: ScoreManager | undefined;
}

function set(attrs: Attributes, key: string, value: unknown): void {
  const text = toAttributeString(value);
  if (text !== undefined) attrs[key] = text;
}

/** Wire contract 2.3: the attributes of an item's root observation. */
function experimentAttributes<Item extends ExperimentDataItem>(s: ItemRunSettings<Item>, item: Item, rootId: string): Attributes {
  const attrs: Attributes = {
    [ObsAttributes.EXPERIMENT_ID]: s.experimentId,
    [ObsAttributes.EXPERIMENT_NAME]: s.runName,
    [ObsAttributes.EXPERIMENT_ITEM_ROOT_OBSERVATION_ID]: rootId,
    [ObsAttributes.TRACE_NAME]: s.name,
  };
  set(attrs, ObsAttributes.EXPERIMENT_DESCRIPTION, s.description);
  set(attrs, ObsAttributes.EXPERIMENT_METADATA, s.metadata);
  set(attrs, ObsAttributes.EXPERIMENT_DATASET_ID, s.datasetId);
  if (s.datasetId !== undefined) set(attrs, ObsAttributes.EXPERIMENT_ITEM_ID, item?.id);
  set(attrs, ObsAttributes.EXPERIMENT_ITEM_EXPECTED_OUTPUT, item?.expectedOutput);
  set(attrs, ObsAttributes.EXPERIMENT_ITEM_METADATA, item?.metadata);
  set(attrs, ObsAttributes.EXPERIMENT_ITEM_VERSION, s.datasetVersion);
  return attrs;
}

/**
 * Runs one item; never rejects. A task that throws marks the root ERROR and lands in `error`
 * (its evaluators are not run); an evaluator that throws is logged with its name and skipped.
 */
export async function runItem<Item extends ExperimentDataItem>(
  s: ItemRunSettings<Item>,
  item: Item,
  index: number,
): Promise<ExperimentItemResult<Item>> {
  // Each item is its own trace, even when the run starts inside a request's span; propagated
  // attributes (propagateAttributes) still apply.
  const root = startObservation(ITEM_ROOT_NAME, { input: item?.input }, { parentContext: trace.deleteSpan(context.active()) });
  if (s.score && !isSpanContextValid(root.spanContext())) {
    logger.warnOnce(
      'experiment-no-tracing',
      'experiment: tracing is not set up (call initObs() first): items are not traced and their scores have no trace',
    );
  }
  root.otelSpan.setAttributes(experimentAttributes(s, item, root.id));
  const rootContext = activeContextFor(root);
  let output: unknown;
  try {
    output = await context.with(rootContext, () => s.task(item));
    root.update({ output });
  } catch (error) {
    recordErrorOnSpan(root.otelSpan, error);
    return { item, output: undefined, evaluations: [], traceId: root.traceId, error };
  } finally {
    root.end();
  }

  const evaluations: Evaluation[] = [];
  const params = { input: item?.input, output, expectedOutput: item?.expectedOutput, metadata: item?.metadata, item };
  for (const [i, evaluator] of s.evaluators.entries()) {
    const name = evaluatorName(evaluator, i);
    const result = await runTracedEvaluator(
      name,
      rootContext,
      { input: params.input, output, expectedOutput: params.expectedOutput },
      () => evaluator(params),
      `on item ${index}`,
    );
    for (const evaluation of result ?? []) {
      evaluations.push(evaluation);
      s.score?.create(evaluationScore(evaluation, { traceId: root.traceId }));
    }
  }
  return { item, output, evaluations, traceId: root.traceId };
}
