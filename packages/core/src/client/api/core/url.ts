import type { QueryValue } from './types.js';

/**
 * Marks an invalid path parameter inside a built path. `encodeURIComponent` never emits NUL,
 * so the mark cannot come from a valid value; the transport finds it and rejects the call with
 * a `TypeError` before any request (resources build paths synchronously and must not throw).
 */
const INVALID_MARK = '\u0000';

/**
 * Encodes one path parameter: `/`, spaces and the like can never change the route, and `.`,
 * `..`, empty, `undefined`, `null` and non-string/number values (which `fetch` would normalise
 * into another resource) are refused.
 */
export function pathParam(value: string | number, name: string): string {
  const problem = pathParamProblem(value);
  if (problem) return `${INVALID_MARK}${name}${INVALID_MARK}${problem}${INVALID_MARK}`;
  return encodeURIComponent(String(value));
}

function pathParamProblem(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${value} is not a finite number`;
  if (typeof value !== 'string') return `${value === null ? 'null' : typeof value} is not a string or number`;
  if (value === '' || value.trim() === '') return 'an empty string';
  if (value === '.' || value === '..') return `"${value}" would address another resource`;
  return undefined;
}

/** A `TypeError` naming the call and the parameter when `path` holds an invalid path parameter. */
export function invalidPathParam(callName: string, path: string): TypeError | undefined {
  const start = path.indexOf(INVALID_MARK);
  if (start < 0) return undefined;
  const [name, problem] = path.slice(start + 1).split(INVALID_MARK);
  return new TypeError(`${callName}: path parameter "${name}" is invalid: ${problem}; nothing was sent`);
}

function isQueryScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date;
}

function queryString(value: string | number | boolean | Date): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** `baseUrl` + `path` + the query, arrays as repeated keys, `undefined`/`null` left out. */
export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    // An object would be sent as "[object Object]": refuse it instead of querying something else.
    if (Array.isArray(value) ? !value.every(isQueryScalar) : !isQueryScalar(value)) {
      throw new TypeError(`query parameter "${key}" must be a string, number, boolean, Date or an array of them`);
    }
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, queryString(v as string | number | boolean | Date));
  }
  const qs = params.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}
