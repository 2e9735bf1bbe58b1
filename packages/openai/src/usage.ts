/**
 * OpenAI's token usage (Chat Completions and embeddings: `prompt_tokens`, `completion_tokens`
 * and their details; Responses: `input_tokens`, `output_tokens` and theirs) as obs
 * `usage_details`: cached input as `input_cache_read`, audio as `input_audio` / `output_audio`,
 * reasoning as `output_reasoning`, each moved out of `input` / `output` (obs's usage buckets are
 * disjoint; OpenAI counts the parts inside the totals). OpenAI-compatible providers' own fields
 * are read where they differ: DeepSeek's `prompt_cache_hit_tokens`, a top-level `cached_tokens`
 * (Moonshot), OpenRouter's `cache_write_tokens` and `cost`, xAI's `image_tokens`.
 */
import { isDict, usageDetails } from '@obs/core/kit';

type Dict = Record<string, unknown>;

/** `usage_details` of any OpenAI usage object; `undefined` when there is none. */
export function openAiUsage(usage: unknown): Record<string, number> | undefined {
  if (!isDict(usage)) return undefined;
  // Both APIs name the details after their totals: `prompt_tokens_details`, `input_tokens_details`, ...
  const responses = 'input_tokens' in usage || 'output_tokens' in usage;
  const input = responses ? 'input_tokens' : 'prompt_tokens';
  const output = responses ? 'output_tokens' : 'completion_tokens';
  const inDetails = dict(usage[`${input}_details`]);
  const outDetails = dict(usage[`${output}_details`]);
  return usageDetails({
    input: usage[input],
    output: usage[output],
    total: usage['total_tokens'],
    inputParts: {
      cache_read: inDetails['cached_tokens'] ?? usage['prompt_cache_hit_tokens'] ?? usage['cached_tokens'],
      cache_write: inDetails['cache_write_tokens'],
      audio: inDetails['audio_tokens'],
      image: inDetails['image_tokens'],
    },
    outputParts: { reasoning: outDetails['reasoning_tokens'], audio: outDetails['audio_tokens'] },
  });
}

/** `cost_details` of a provider that prices the call in its usage (OpenRouter's `cost`). */
export function openAiCost(usage: unknown): Record<string, number> | undefined {
  const cost = isDict(usage) ? usage['cost'] : undefined;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { total: cost } : undefined;
}

function dict(v: unknown): Dict {
  return isDict(v) ? v : {};
}
