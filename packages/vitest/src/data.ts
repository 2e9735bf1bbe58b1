/** The items of a suite, read while the test runner collects tests, and the name of each item's test. */
import type { ObsClient } from '@obs/core';
import type { DatasetRef, EvalData, EvalItem } from './types.js';

/** The items, and the dataset they were read from (a dataset run), if any. */
export interface SuiteData<Item extends EvalItem> {
  items: Item[];
  dataset?: { id: string; name: string; version?: string };
}

/** Reads the items; a dataset needs obs configured (`client`). */
export async function loadData<Item extends EvalItem>(
  suite: string,
  data: EvalData<Item>,
  client: () => ObsClient | undefined,
): Promise<SuiteData<Item>> {
  if (Array.isArray(data)) return { items: checked(suite, data) };
  if (typeof data === 'function') return { items: checked(suite, await data()) };
  if (isDatasetRef(data)) {
    const obs = client();
    if (!obs) {
      throw new Error(
        `describeEval "${suite}": data names the dataset "${data.dataset}", but obs is not configured (set OBS_BASE_URL, OBS_PUBLIC_KEY, OBS_SECRET_KEY)`,
      );
    }
    const dataset = await obs.dataset.get(data.dataset, data.version !== undefined ? { version: data.version } : {});
    const items = dataset.items as unknown as Item[];
    return {
      items,
      dataset: { id: dataset.id, name: dataset.name, ...(dataset.version !== undefined ? { version: dataset.version } : {}) },
    };
  }
  throw new TypeError(`describeEval "${suite}": data must be an array of items, a function returning one, or { dataset: '<name>' }`);
}

function isDatasetRef(data: unknown): data is DatasetRef {
  return typeof data === 'object' && data !== null && typeof (data as DatasetRef).dataset === 'string';
}

function checked<Item extends EvalItem>(suite: string, items: unknown): Item[] {
  if (!Array.isArray(items)) throw new TypeError(`describeEval "${suite}": data must give an array of items, got ${typeof items}`);
  items.forEach((item, i) => {
    if (typeof item !== 'object' || item === null)
      throw new TypeError(`describeEval "${suite}": item ${i} is not an object ({ input, expectedOutput? })`);
  });
  return items as Item[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Test names for the items: an item's `id` unless it is a generated UUID, else its input in one
 * short line; a name given twice gets ` (2)`, ` (3)`... so `-t` finds each.
 */
export function itemNames(items: readonly EvalItem[]): string[] {
  const seen = new Map<string, number>();
  return items.map((item, i) => {
    const id = typeof item.id === 'string' && item.id !== '' && !UUID.test(item.id) ? item.id : undefined;
    const base = id ?? oneLine(item.input) ?? `item ${i + 1}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

const MAX_NAME = 80;

function oneLine(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  text = text.replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  return text.length > MAX_NAME ? `${text.slice(0, MAX_NAME - 1)}…` : text;
}
