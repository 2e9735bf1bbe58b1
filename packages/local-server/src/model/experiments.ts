/**
 * Experiments and experiment items derived from received spans: a span carrying
 * `obs.experiment.id` is an experiment item (wire contract 2.3); nothing else records
 * experiments (the runner never calls `POST /api/public/dataset-run-items`).
 */
import type { AttrValue, DecodedSpan } from '../types.js';

/** An experiment item as `GET /api/public/experiment-items` answers it. */
export interface ExperimentItemRecord {
  id: string;
  experimentId: string;
  experimentName: string | null;
  datasetId: string | null;
  datasetItemId: string | null;
  datasetItemVersion: string | null;
  traceId: string;
  observationId: string;
  expectedOutput: unknown;
  metadata: unknown;
  createdAt: string;
}

/** An experiment as `GET /api/public/experiments` answers it. */
export interface ExperimentRecord {
  id: string;
  name: string | null;
  description: string | null;
  metadata: unknown;
  datasetId: string | null;
  itemCount: number;
  createdAt: string;
}

const E = 'obs.experiment.';

function text(v: AttrValue | undefined): string | null {
  return v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v);
}

function json(v: AttrValue | undefined): unknown {
  if (typeof v !== 'string') return v ?? null;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** The experiment items among `spans`, oldest first. */
export function experimentItems(spans: DecodedSpan[]): ExperimentItemRecord[] {
  return spans
    .filter((s) => typeof s.attributes[`${E}id`] === 'string')
    .sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : a.startTimeUnixNano > b.startTimeUnixNano ? 1 : 0))
    .map((s) => {
      const a = s.attributes;
      return {
        id: s.spanId,
        experimentId: a[`${E}id`] as string,
        experimentName: text(a[`${E}name`]),
        datasetId: text(a[`${E}dataset.id`]),
        datasetItemId: text(a[`${E}item.id`]),
        datasetItemVersion: text(a[`${E}item.version`]),
        traceId: s.traceId,
        observationId: text(a[`${E}item.root_observation_id`]) ?? s.spanId,
        expectedOutput: json(a[`${E}item.expected_output`]),
        metadata: json(a[`${E}item.metadata`]),
        createdAt: s.startTime.toISOString(),
      };
    });
}

/** The experiments the items belong to, in order of their first item. */
export function experiments(spans: DecodedSpan[]): ExperimentRecord[] {
  const byId = new Map<string, ExperimentRecord>();
  for (const span of spans) {
    const a = span.attributes;
    const id = a[`${E}id`];
    if (typeof id !== 'string') continue;
    const existing = byId.get(id);
    if (existing) {
      existing.itemCount++;
      continue;
    }
    byId.set(id, {
      id,
      name: text(a[`${E}name`]),
      description: text(a[`${E}description`]),
      metadata: json(a[`${E}metadata`]),
      datasetId: text(a[`${E}dataset.id`]),
      itemCount: 1,
      createdAt: span.startTime.toISOString(),
    });
  }
  return [...byId.values()];
}
