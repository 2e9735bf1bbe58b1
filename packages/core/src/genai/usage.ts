/**
 * Token counts as obs `usage_details` (wire contract 2.1): disjoint buckets, each priced on its
 * own. Providers and SDKs report an input total that includes its cached, cache-written and
 * audio parts, and an output total that includes its reasoning and audio parts; obs moves the
 * parts out, so `input + Σ input_*` is the reported input and `output + Σ output_*` the
 * reported output. `total` stays the total as reported (else input + output).
 */

/** What a model call reported: totals, and the parts inside them by bucket name. */
export interface TokenCounts {
  /** Input tokens, every part included (cache reads and writes, audio, ...). */
  input?: unknown;
  /** Output tokens, every part included (reasoning, audio, ...). */
  output?: unknown;
  /** Total as reported; derived from input + output when absent. */
  total?: unknown;
  /** Parts of `input`, e.g. `{ cache_read: 40, cache_write: 10 }`: they become `input_cache_read`, ... */
  inputParts?: Record<string, unknown>;
  /** Parts of `output`, e.g. `{ reasoning: 10 }`: they become `output_reasoning`, ... */
  outputParts?: Record<string, unknown>;
}

/**
 * `usage_details` from reported counts; `undefined` when nothing was reported. Non-numeric,
 * negative and zero parts are left out; a base never goes below 0 (a provider that reports
 * parts larger than its total keeps the parts).
 */
export function usageDetails(counts: TokenCounts): Record<string, number> | undefined {
  const input = count(counts.input);
  const output = count(counts.output);
  const reportedTotal = count(counts.total);
  if (input === undefined && output === undefined && reportedTotal === undefined) return undefined;
  const out: Record<string, number> = {};
  if (input !== undefined) out['input'] = Math.max(0, input - addParts(out, 'input', counts.inputParts));
  else addParts(out, 'input', counts.inputParts);
  if (output !== undefined) out['output'] = Math.max(0, output - addParts(out, 'output', counts.outputParts));
  else addParts(out, 'output', counts.outputParts);
  const total = reportedTotal ?? (input !== undefined || output !== undefined ? (input ?? 0) + (output ?? 0) : undefined);
  if (total !== undefined) out['total'] = total;
  return out;
}

/** Copies the parts as `<side>_<name>` and returns their sum. */
function addParts(out: Record<string, number>, side: string, parts: Record<string, unknown> | undefined): number {
  if (!parts) return 0;
  let sum = 0;
  for (const name in parts) {
    const v = count(parts[name]);
    if (v === undefined || v === 0) continue;
    out[`${side}_${name}`] = v;
    sum += v;
  }
  return sum;
}

/** A token count, or `undefined` for anything that is not a finite non-negative number. */
export function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}
