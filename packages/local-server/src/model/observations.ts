/**
 * Builds `ObservationV2`-like objects from stored spans, for `GET /api/public/v2/observations`.
 */
import type { AttrValue, DecodedSpan } from '../types.js';

/** An observation as returned by the local v2 observations endpoint. */
export interface ObservationV2 {
  id: string;
  traceId: string;
  parentObservationId: string | null;
  name: string;
  /** `obs.observation.type` as stored (e.g. `span`, `generation`); `span` when absent. */
  type: string;
  startTime: string;
  endTime: string;
  /** Raw attribute string (JSON text as serialised by the SDK), or null. */
  input: string | null;
  output: string | null;
  /** Rebuilt from the `obs.observation.metadata.*` attributes (dotted paths nest). */
  metadata: Record<string, unknown>;
  level: string;
  statusMessage: string | null;
  userId: string | null;
  sessionId: string | null;
  traceName: string | null;
  environment: string | null;
  version: string | null;
  release: string | null;
  model: string | null;
  modelParameters: unknown;
  usageDetails: unknown;
  costDetails: unknown;
  completionStartTime: string | null;
  promptName: string | null;
  promptVersion: number | null;
  latency: number;
}

/** One condition of a v2 `filter`. Operators: `=`, `!=`, `any of`, `none of`, `contains`. */
export interface ObservationFilter {
  type?: string;
  column: string;
  operator: string;
  value: unknown;
}

const OBS = 'obs.observation.';
const META = 'obs.observation.metadata.';

/** Converts a span into an observation. */
export function spanToObservation(span: DecodedSpan): ObservationV2 {
  const a = span.attributes;
  const s = (key: string): string | null => {
    const v = a[key];
    return v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v);
  };
  const level = s(`${OBS}level`) ?? (span.status.code === 2 ? 'ERROR' : 'DEFAULT');
  const promptVersion = a[`${OBS}prompt.version`];
  return {
    id: span.spanId,
    traceId: span.traceId,
    parentObservationId: span.parentSpanId ?? null,
    name: span.name,
    type: s(`${OBS}type`) ?? 'span',
    startTime: span.startTime.toISOString(),
    endTime: span.endTime.toISOString(),
    input: s(`${OBS}input`),
    output: s(`${OBS}output`),
    metadata: rebuildMetadata(a),
    level,
    statusMessage: s(`${OBS}status_message`) ?? span.status.message ?? null,
    userId: s('user.id'),
    sessionId: s('session.id'),
    traceName: s('obs.trace.name'),
    environment: s('obs.environment'),
    version: s('obs.version'),
    release: s('obs.release'),
    model: s(`${OBS}model.name`),
    modelParameters: parseJson(a[`${OBS}model.parameters`]),
    usageDetails: parseJson(a[`${OBS}usage_details`]),
    costDetails: parseJson(a[`${OBS}cost_details`]),
    completionStartTime: s(`${OBS}completion_start_time`),
    promptName: s(`${OBS}prompt.name`),
    promptVersion: typeof promptVersion === 'number' ? promptVersion : promptVersion == null ? null : Number(promptVersion),
    latency: span.durationMs / 1000,
  };
}

/** Nests `obs.observation.metadata.a.b = 1` into `{ a: { b: 1 } }` (a clash keeps the flat key). */
export function rebuildMetadata(attributes: Record<string, AttrValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(META)) continue;
    const path = key.slice(META.length).split('.');
    let node: Record<string, unknown> = out;
    let ok = true;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      if (next === undefined) {
        const created: Record<string, unknown> = {};
        node[part] = created;
        node = created;
      } else if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
        node = next as Record<string, unknown>;
      } else {
        ok = false;
        break;
      }
    }
    const leaf = path[path.length - 1]!;
    if (ok && !(leaf in node && typeof node[leaf] === 'object')) node[leaf] = value;
    else out[key.slice(META.length)] = value;
  }
  return out;
}

/**
 * Parses and checks a v2 `filter` query parameter.
 *
 * @throws Error with a message suitable for a 400 answer
 */
export function parseFilter(raw: string | undefined): ObservationFilter[] {
  if (raw === undefined || raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('filter must be a JSON array of {type, column, operator, value}');
  }
  if (!Array.isArray(parsed)) throw new Error('filter must be a JSON array of {type, column, operator, value}');
  return parsed.map((f, i) => {
    if (typeof f !== 'object' || f === null || typeof f.column !== 'string' || typeof f.operator !== 'string') {
      throw new Error(`filter[${i}] needs a string column and operator`);
    }
    if (!['=', '!=', 'any of', 'none of', 'contains'].includes(f.operator)) {
      throw new Error(`filter[${i}]: unsupported operator ${JSON.stringify(f.operator)}`);
    }
    return f as ObservationFilter;
  });
}

/** Whether an observation satisfies every condition. `metadata.<path>` columns read nested metadata. */
export function matchesFilters(o: ObservationV2, filters: readonly ObservationFilter[]): boolean {
  return filters.every((f) => {
    const actual = column(o, f.column);
    // Types and levels compare case-insensitively (`GENERATION` matches a stored `generation`).
    const norm = f.column === 'type' || f.column === 'level' ? (v: unknown) => String(v).toLowerCase() : String;
    const eq = (v: unknown) => actual !== undefined && actual !== null && norm(actual) === norm(v);
    switch (f.operator) {
      case '=':
        return eq(f.value);
      case '!=':
        return !eq(f.value);
      case 'any of':
        return Array.isArray(f.value) && f.value.some(eq);
      case 'none of':
        return !(Array.isArray(f.value) && f.value.some(eq));
      case 'contains':
        return typeof actual === 'string' && actual.includes(String(f.value));
      default:
        return false;
    }
  });
}

function column(o: ObservationV2, name: string): unknown {
  if (name.startsWith('metadata.')) {
    let node: unknown = o.metadata;
    for (const part of name.slice('metadata.'.length).split('.')) {
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
    }
    return node;
  }
  return (o as unknown as Record<string, unknown>)[name];
}

/** An attribute holding JSON text as the value it encodes (text that is not JSON stays text); `null` when absent. */
export function parseJson(v: AttrValue | undefined): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}
