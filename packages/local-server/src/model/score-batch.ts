/**
 * Score batch validation (the 200 / 207 answers of `POST /api/public/scores`).
 */
import type { ReceivedScore, ScoreRule } from '../types.js';

/** Scores one `POST /api/public/scores` may carry (contract 8); more is a 400. */
export const MAX_SCORES_PER_BATCH = 100;

/** One rejected score, as sent back in a 207 answer. */
export interface ScoreError {
  index: number;
  id?: unknown;
  message: string;
}

/** The outcome of one batch. */
export interface ScoreBatchResult {
  accepted: ReceivedScore[];
  errors: ScoreError[];
}

/** Why a score is invalid, or undefined when it is valid. */
export function validateScore(score: unknown): string | undefined {
  if (typeof score !== 'object' || score === null || Array.isArray(score)) return 'score must be a JSON object';
  const s = score as Record<string, unknown>;
  if (typeof s['name'] !== 'string' || s['name'].trim() === '') return 'name is required and must be a non-empty string';
  const value = s['value'];
  if (!(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) {
    return 'value must be a finite number or a string';
  }
  return undefined;
}

/** Splits a batch into accepted scores and errors. */
export function processScoreBatch(batch: unknown[], rule: ScoreRule | undefined, receivedAt: number): ScoreBatchResult {
  const accepted: ReceivedScore[] = [];
  const errors: ScoreError[] = [];
  batch.forEach((score, index) => {
    let message = validateScore(score);
    if (message === undefined && rule) {
      try {
        message = rule(score, index) ?? undefined;
      } catch (err) {
        message = `score rule threw: ${(err as Error)?.message ?? String(err)}`;
      }
    }
    if (message === undefined) {
      accepted.push({ ...(score as Record<string, unknown>), receivedAt });
    } else {
      const id = typeof score === 'object' && score !== null ? (score as Record<string, unknown>)['id'] : undefined;
      errors.push(id === undefined ? { index, message } : { index, id, message });
    }
  });
  return { accepted, errors };
}
