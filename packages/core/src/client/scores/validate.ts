import { containsBinary, safeStringify } from '../../util/serialize.js';
import type { CreateScoreRequest, ScoreDataType } from '../api/types.js';
import { describeError } from '../util/describe.js';
import { newScoreId } from './id.js';

/** A checked score, copied so later changes by the caller cannot alter what is sent. */
export type ScoreValidation = { ok: true; score: CreateScoreRequest } | { ok: false; reason: string };

const DATA_TYPES: ReadonlySet<string> = new Set<ScoreDataType>(['NUMERIC', 'BOOLEAN', 'CATEGORICAL']);
const ID_FIELDS = ['id', 'traceId', 'observationId', 'sessionId', 'datasetRunId', 'configId'] as const;
const TEXT_FIELDS = ['comment', 'environment'] as const;

function fail(reason: string): ScoreValidation {
  return { ok: false, reason };
}

function checkValue(value: unknown, dataType: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return `value must be a finite number, got ${String(value)}`;
  } else if (typeof value !== 'string') {
    return `value must be a number or a string, got ${value === null ? 'null' : typeof value}`;
  }
  if (dataType === undefined || dataType === null) return undefined;
  if (typeof dataType !== 'string' || !DATA_TYPES.has(dataType)) {
    return `dataType must be NUMERIC, BOOLEAN or CATEGORICAL, got ${String(dataType)}`;
  }
  if (dataType === 'CATEGORICAL' && typeof value !== 'string') return 'a CATEGORICAL score needs a string value';
  if (dataType === 'NUMERIC' && typeof value !== 'number') return 'a NUMERIC score needs a number value';
  if (dataType === 'BOOLEAN' && value !== 0 && value !== 1) return 'a BOOLEAN score needs the value 0 or 1';
  return undefined;
}

/**
 * JSON round trip: rejects circular values and BigInt, and freezes a snapshot. Binary data is
 * described (`[binary N bytes, type]`), never turned into an array of its bytes.
 */
function snapshotMetadata(metadata: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  let json: string | undefined;
  try {
    json = containsBinary(metadata) ? safeStringify(metadata) : JSON.stringify(metadata);
  } catch (err) {
    return { ok: false, reason: `metadata is not JSON-serialisable (${describeError(err)})` };
  }
  if (json === undefined) return { ok: false, reason: `metadata is not JSON-serialisable (${typeof metadata})` };
  return { ok: true, value: JSON.parse(json) as unknown };
}

function check(input: unknown): ScoreValidation {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail(`a score must be an object, got ${Array.isArray(input) ? 'an array' : input === null ? 'null' : typeof input}`);
  }
  // Each field is read exactly once: getters may change between reads.
  const raw = input as Record<string, unknown>;
  const name = raw.name;
  if (typeof name !== 'string' || name.trim() === '') return fail('name must be a non-empty string');
  const value = raw.value;
  const dataType = raw.dataType;
  const valueProblem = checkValue(value, dataType);
  if (valueProblem) return fail(valueProblem);

  const score: CreateScoreRequest = { name, value: value as number | string };
  if (dataType !== undefined && dataType !== null) score.dataType = dataType as ScoreDataType;
  for (const field of ID_FIELDS) {
    const v = raw[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || v === '') return fail(`${field} must be a non-empty string`);
    score[field] = v;
  }
  for (const field of TEXT_FIELDS) {
    const v = raw[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') return fail(`${field} must be a string`);
    score[field] = v;
  }
  const metadata = raw.metadata;
  if (metadata !== undefined) {
    const snap = snapshotMetadata(metadata);
    if (!snap.ok) return fail(snap.reason);
    score.metadata = snap.value;
  }
  if (score.traceId === undefined && score.sessionId === undefined && score.datasetRunId === undefined) {
    return fail('a score needs a target: traceId, sessionId or datasetRunId');
  }
  if (score.observationId !== undefined && score.traceId === undefined) {
    return fail('observationId needs the traceId of its trace');
  }
  return { ok: true, score };
}

/**
 * Checks a score before it is queued (contract 7.1). Never throws: a hostile object (throwing
 * getters, proxies) is reported as invalid. Free of Node built-ins, so the browser client uses it.
 */
export function validateScore(input: unknown): ScoreValidation {
  try {
    return check(input);
  } catch (err) {
    return fail(`the score could not be read (${describeError(err)})`);
  }
}

/**
 * `validateScore`, then a client-side id and `environment` on a valid score that names none.
 * Shared by `client.score` and the browser client, so both send the same scores.
 */
export function prepareScore(input: unknown, environment?: string): ScoreValidation {
  const checked = validateScore(input);
  if (!checked.ok) return checked;
  const { score } = checked;
  score.id ??= newScoreId();
  if (score.id === undefined) delete score.id;
  score.environment ??= environment;
  if (score.environment === undefined) delete score.environment;
  return checked;
}
