/**
 * What an observation cost: the SDK's `cost_details` when it sent them (they always win), else
 * its `usage_details` priced from a model price table, bucket by bucket, as the platform's model
 * definitions price them. The table is the bundled one (./model-prices.ts) behind whatever
 * `--prices` adds; a model is found by a pattern on its name, tried against the name as sent and
 * against its bare form (provider prefixes, Bedrock's region, vendor and version parts, Vertex's
 * `@version` taken off), so `us.anthropic.claude-sonnet-4-5-20250929-v1:0`,
 * `anthropic/claude-sonnet-4-5` and `claude-sonnet-4-5@20250929` are one model.
 */
import type { AttrValue, ModelPrice } from '../types.js';
import { MODEL_PRICES } from './model-prices.js';

export type { ModelPrice };

/** An observation's cost in USD: in total and by bucket, and where it came from. */
export interface ObservationCost {
  total: number;
  details: Record<string, number>;
  /** `sdk`: the `cost_details` the SDK sent; `price table`: its usage priced here. */
  source: 'sdk' | 'price table';
  /** The price table's model (when priced here). */
  model?: string;
}

interface CompiledPrice {
  entry: ModelPrice;
  pattern: RegExp;
}

/** Most model names whose price table entry is remembered (the names an app uses are few). */
const REMEMBERED_NAMES = 1000;

/** A price table: the entries given first, then the bundled ones. */
export class Pricing {
  private readonly table: CompiledPrice[];
  private readonly found = new Map<string, CompiledPrice | undefined>();

  /** @param extra entries that add to or override the bundled table (tried first, in order) */
  constructor(extra: readonly ModelPrice[] = [], bundled: readonly ModelPrice[] = MODEL_PRICES) {
    this.table = [...extra, ...bundled].map((entry) => ({ entry, pattern: compile(entry) }));
  }

  /** The entry pricing a model name, if any. */
  find(model: string): ModelPrice | undefined {
    return this.lookup(model)?.entry;
  }

  /** The cost of an observation with these attributes; `undefined` when it has neither `cost_details` nor priced usage. */
  costOf(attributes: Record<string, AttrValue>): ObservationCost | undefined {
    const sent = numbers(attributes['obs.observation.cost_details']);
    if (sent) {
      const { total, ...details } = sent;
      return { total: total ?? sum(details), details, source: 'sdk' };
    }
    const model = attributes['obs.observation.model.name'];
    const usage = numbers(attributes['obs.observation.usage_details']);
    if (typeof model !== 'string' || !usage) return undefined;
    const priced = this.lookup(model);
    if (!priced) return undefined;
    const { prices } = priced.entry;
    const details: Record<string, number> = {};
    for (const [bucket, tokens] of Object.entries(usage)) {
      if (bucket === 'total' || !(tokens > 0)) continue;
      const price =
        prices[bucket] ?? (bucket.startsWith('input_') ? prices['input'] : bucket.startsWith('output_') ? prices['output'] : undefined);
      if (price !== undefined) details[bucket] = (tokens * price) / 1e6;
    }
    if (Object.keys(details).length === 0) return undefined;
    return { total: sum(details), details, source: 'price table', model: priced.entry.model };
  }

  private lookup(model: string): CompiledPrice | undefined {
    if (this.found.has(model)) return this.found.get(model);
    const bare = bareModelName(model);
    const hit = this.table.find(({ pattern }) => pattern.test(model) || pattern.test(bare));
    if (this.found.size >= REMEMBERED_NAMES) this.found.clear();
    this.found.set(model, hit);
    return hit;
  }
}

/**
 * A model name without what only says where it runs: lower case; an AWS ARN's path, Google's
 * `models/` and `publishers/…/models/`, a `provider/` prefix, Bedrock's region (`us.`,
 * `global.`, …), vendor (`anthropic.`) and version (`-v1:0`) taken off; Vertex's `@version`
 * becomes `-version`.
 */
export function bareModelName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^arn:aws[\w-]*:bedrock:[^/]*\//, '')
    .replace(/^(publishers\/[^/]+\/)?models\//, '')
    .replace(/^(openai|anthropic|google|googleai|gemini|vertex_ai|vertexai|mistral|mistralai|bedrock|bedrock_converse|amazon|azure)\//, '')
    .replace(/^(us|eu|apac|au|jp|ca|us-gov|global)\./, '')
    .replace(/^(anthropic|amazon|mistral|meta|openai|google)\./, '')
    .replace(/-v\d+(:\d+)?$/, '')
    .replace('@', '-');
}

/**
 * Checks a price table read from JSON: an array of entries, or `{ models: [...] }`.
 *
 * @throws Error naming the first entry that is not one
 */
export function parsePriceTable(json: unknown): ModelPrice[] {
  const list = Array.isArray(json) ? json : (json as { models?: unknown } | null)?.models;
  if (!Array.isArray(list)) throw new Error('expected a JSON array of { model, match?, prices } (or { "models": [...] })');
  return list.map((raw: unknown, i) => {
    const entry = raw as Partial<ModelPrice> | null;
    const where = `entry ${i}${typeof entry?.model === 'string' ? ` (${entry.model})` : ''}`;
    if (typeof entry !== 'object' || entry === null || typeof entry.model !== 'string' || entry.model === '') {
      throw new Error(`${where}: needs a "model" name`);
    }
    if (entry.match !== undefined && typeof entry.match !== 'string')
      throw new Error(`${where}: "match" must be a regular expression as a string`);
    const prices = entry.prices as Record<string, unknown> | undefined;
    if (typeof prices !== 'object' || prices === null || Array.isArray(prices) || Object.keys(prices).length === 0) {
      throw new Error(`${where}: needs "prices": { "input": <USD per million tokens>, "output": ... }`);
    }
    for (const [bucket, price] of Object.entries(prices)) {
      if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) {
        throw new Error(`${where}: the price of ${JSON.stringify(bucket)} must be a non-negative number (USD per million tokens)`);
      }
    }
    const parsed: ModelPrice = { model: entry.model, prices: prices as Record<string, number> };
    if (entry.match !== undefined) parsed.match = entry.match;
    try {
      compile(parsed);
    } catch (err) {
      throw new Error(`${where}: "match" is not a regular expression (${(err as Error).message})`);
    }
    return parsed;
  });
}

function compile(entry: ModelPrice): RegExp {
  if (entry.match === undefined) return new RegExp(`^${entry.model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i');
  return new RegExp(entry.match.replace(/^\(\?i\)/, ''), 'i');
}

/** The numbers of a JSON-object attribute (`usage_details`, `cost_details`), or `undefined`. */
function numbers(v: AttrValue | undefined): Record<string, number> | undefined {
  if (typeof v !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(parsed)) if (typeof n === 'number' && Number.isFinite(n)) out[k] = n;
  return Object.keys(out).length > 0 ? out : undefined;
}

function sum(o: Record<string, number>): number {
  let n = 0;
  for (const v of Object.values(o)) n += v;
  return n;
}
