/**
 * A trace's input and output as the platform shows them: those of its root observation (contract:
 * "trace input and output come from the root observation"), read through the v2 observations API.
 */
import type { ObsApiClient } from '../api/client.js';
import type { RequestOptions } from '../api/core/types.js';
import { cursorItems } from '../api/paging.js';
import type { ObservationV2 } from '../api/types.js';

/** The root observation of a trace with its input and output (JSON text parsed). */
export interface TraceRoot {
  observationId: string;
  name: string | undefined;
  input: unknown;
  output: unknown;
}

/** Observations read per page (the v2 API's cap is higher; a trace rarely has more). */
const PAGE = 100;

/**
 * The root of trace `traceId`: its observation without a parent in the trace (the earliest, for a
 * trace continued from elsewhere); `undefined` when the server has no observation of it (yet).
 */
export async function readTraceRoot(api: ObsApiClient, traceId: string, requestOptions?: RequestOptions): Promise<TraceRoot | undefined> {
  const observations: ObservationV2[] = [];
  for await (const o of cursorItems((cursor) =>
    api.observations.getMany({ traceId, fields: ['core', 'basic', 'time', 'io'], cursor, limit: PAGE }, requestOptions),
  )) {
    if (o && typeof o.id === 'string') observations.push(o);
  }
  const ids = new Set(observations.map((o) => o.id));
  const roots = observations.filter((o) => typeof o['parentObservationId'] !== 'string' || !ids.has(o['parentObservationId']));
  const root = roots.sort((a, b) => startOf(a) - startOf(b))[0];
  if (!root) return undefined;
  return {
    observationId: root.id,
    name: typeof root['name'] === 'string' ? root['name'] : undefined,
    input: parsed(root.input),
    output: parsed(root.output),
  };
}

function startOf(o: ObservationV2): number {
  const t = typeof o['startTime'] === 'string' ? Date.parse(o['startTime']) : Number.NaN;
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/** The API answers input and output as JSON text: the value it encodes, or the text itself when it is not JSON. */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
