/** Evaluator results: checked, turned into scores, and evaluators traced as `evaluator` observations. */
import { context, type Context } from '@opentelemetry/api';
import { logger } from '../../util/logger.js';
import { activeContextFor, startObservation } from '../../tracing/start.js';
import { recordErrorOnSpan } from '../../tracing/record-error.js';
import type { ScoreBody } from '../scores/types.js';
import { describeError } from '../util/describe.js';
import type { Evaluation } from './types.js';

/** The name an evaluator is known by in logs and observations. */
export function evaluatorName(fn: (...args: never[]) => unknown, index: number): string {
  return typeof fn.name === 'string' && fn.name !== '' ? fn.name : `evaluator-${index + 1}`;
}

/** An evaluator's answer as a list; non-objects are logged (with the evaluator's name) and left out. */
export function evaluationList(result: unknown, evaluator: string): Evaluation[] {
  const list = Array.isArray(result) ? result : [result];
  const out: Evaluation[] = [];
  for (const e of list) {
    if (typeof e === 'object' && e !== null) out.push(e as Evaluation);
    else logger.error(`experiment evaluator "${evaluator}" returned ${e === null ? 'null' : typeof e} instead of { name, value }: ignored`);
  }
  return out;
}

/** The score of one evaluation; a boolean value becomes 1/0 with `dataType: BOOLEAN`. */
export function evaluationScore(evaluation: Evaluation, target: { traceId: string } | { datasetRunId: string }): ScoreBody {
  const { name, value, comment, metadata, dataType } = evaluation;
  const boolean = typeof value === 'boolean';
  return {
    ...target,
    name,
    value: boolean ? (value ? 1 : 0) : value,
    ...(comment !== undefined ? { comment } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...(boolean ? { dataType: 'BOOLEAN' as const } : dataType !== undefined ? { dataType } : {}),
  };
}

/**
 * Runs one evaluator as an `evaluator` observation under `parent` (the item's root), so it
 * shows in the item's trace. Resolves with its evaluations, or `undefined` when it threw (then
 * logged with its name, recorded on the observation, and skipped).
 */
export async function runTracedEvaluator(
  name: string,
  parent: Context,
  input: unknown,
  call: () => unknown,
  where: string,
): Promise<Evaluation[] | undefined> {
  const obs = startObservation(name, { input }, { asType: 'evaluator', parentContext: parent });
  try {
    const evaluations = evaluationList(await context.with(activeContextFor(obs, parent), call), name);
    obs.update({ output: evaluations });
    return evaluations;
  } catch (err) {
    recordErrorOnSpan(obs.otelSpan, err);
    logger.error(`experiment evaluator "${name}" failed ${where}: ${describeError(err)}; its scores are skipped`);
    return undefined;
  } finally {
    obs.end();
  }
}
