import type { QueryValue } from './types.js';

/** Encodes one path parameter: `/`, spaces and the like can never change the route. */
export function pathParam(value: string | number): string {
  return encodeURIComponent(String(value));
}

function queryString(value: string | number | boolean | Date): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** `baseUrl` + `path` + the query, arrays as repeated keys, `undefined`/`null` left out. */
export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const v of value as ReadonlyArray<string | number | boolean>) params.append(key, queryString(v));
    } else {
      params.append(key, queryString(value as string | number | boolean | Date));
    }
  }
  const qs = params.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}
