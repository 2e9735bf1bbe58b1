/**
 * Token usage of a LangChain model run as obs `usage_details`, through core's one rule
 * (`usageDetails` of `@obs/core/kit`: disjoint buckets, parts moved out of their totals).
 *
 * LangChain's `usage_metadata` counts every input token in `input_tokens` (cache reads, cache
 * writes and audio/image/... tokens included) and every output token in `output_tokens`
 * (reasoning included); its `input_token_details` and `output_token_details` are the parts, under
 * the same names as the AI SDK's and OpenAI's buckets but `cache_creation` (obs's `cache_write`).
 * `text` details are the default bucket and are not repeated. So `input + Σ input_*` is
 * `input_tokens` and `output + Σ output_*` is `output_tokens`; `total` is `total_tokens` as
 * reported (else their sum).
 */
import { usageDetails as fromCounts } from '@obs/core/kit';

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
  if (usage && (isCount(usage.input_tokens) || isCount(usage.output_tokens))) {
    // A side LangChain leaves out counts as 0 (its message types always carry both).
    return fromCounts({
      input: isCount(usage.input_tokens) ? usage.input_tokens : 0,
      output: isCount(usage.output_tokens) ? usage.output_tokens : 0,
      total: usage.total_tokens,
      inputParts: parts(usage.input_token_details),
      outputParts: parts(usage.output_token_details),
    });
  }
  if (legacy && (isCount(legacy.promptTokens) || isCount(legacy.completionTokens))) {
    return fromCounts({ input: legacy.promptTokens, output: legacy.completionTokens, total: legacy.totalTokens });
  }
  return undefined;
}

/** The detail counts by obs's bucket names, the default `text` bucket left out. */
function parts(details: Record<string, number | undefined> | undefined): Record<string, unknown> | undefined {
  if (!details || typeof details !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const key in details) if (key !== 'text') out[key === 'cache_creation' ? 'cache_write' : key] = details[key];
  return out;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}
