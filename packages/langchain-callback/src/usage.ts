/**
 * Token usage of a LangChain model run as obs `usage_details`.
 *
 * LangChain's `usage_metadata` counts every input token in `input_tokens` (cache reads, cache
 * writes and audio/image/... tokens included) and every output token in `output_tokens`
 * (reasoning included). obs prices each usage key separately, so the parts are moved out:
 *
 * - `input` = `input_tokens` - (`cache_read` + `cache_creation` + non-text modalities), never below 0
 * - `input_cache_read`, `input_cache_write` (LangChain's `cache_creation`), `input_audio`, ... =
 *   the reported parts, under the same keys as the AI SDK's and OpenAI's usage
 * - `output` = `output_tokens` - (`reasoning` + non-text modalities), never below 0
 * - `output_reasoning`, `output_audio`, ... = the reported parts
 * - `total` = `total_tokens` as reported (else `input_tokens + output_tokens`)
 *
 * So `input + Σ input_*` = `input_tokens`, `output + Σ output_*` = `output_tokens`. `text`
 * details are the default bucket and are not repeated.
 */

interface UsageMetadataLike {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_token_details?: Record<string, number | undefined>;
  output_token_details?: Record<string, number | undefined>;
}

interface TokenUsageLike {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
}

/** Usage details from `usage_metadata` (preferred) or the legacy `llmOutput.tokenUsage`. */
export function usageDetails(usage: UsageMetadataLike | undefined, legacy: TokenUsageLike | undefined): Record<string, number> | undefined {
  if (usage && (isCount(usage.input_tokens) || isCount(usage.output_tokens))) return fromUsageMetadata(usage);
  if (legacy && (isCount(legacy.promptTokens) || isCount(legacy.completionTokens))) {
    const out: Record<string, number> = {};
    if (isCount(legacy.promptTokens)) out['input'] = legacy.promptTokens;
    if (isCount(legacy.completionTokens)) out['output'] = legacy.completionTokens;
    const total = isCount(legacy.totalTokens) ? legacy.totalTokens : (legacy.promptTokens ?? 0) + (legacy.completionTokens ?? 0);
    out['total'] = total;
    return out;
  }
  return undefined;
}

function fromUsageMetadata(u: UsageMetadataLike): Record<string, number> {
  const out: Record<string, number> = {};
  const input = isCount(u.input_tokens) ? u.input_tokens : 0;
  const output = isCount(u.output_tokens) ? u.output_tokens : 0;
  out['input'] = Math.max(0, input - addParts(out, 'input', u.input_token_details));
  out['output'] = Math.max(0, output - addParts(out, 'output', u.output_token_details));
  out['total'] = isCount(u.total_tokens) ? u.total_tokens : input + output;
  return out;
}

/** Copies the detail counts as `<side>_<key>` and returns their sum. */
function addParts(out: Record<string, number>, side: string, details: Record<string, number | undefined> | undefined): number {
  if (!details || typeof details !== 'object') return 0;
  let sum = 0;
  for (const key in details) {
    const v = details[key];
    if (key === 'text' || !isCount(v) || v === 0) continue;
    out[`${side}_${key === 'cache_creation' ? 'cache_write' : key}`] = v;
    sum += v;
  }
  return sum;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}
