/**
 * The bundled model price table: list prices in USD per million tokens for the current models
 * of OpenAI, Anthropic, Google (Gemini API), Amazon Bedrock (Nova; Bedrock's Anthropic, Mistral
 * and OpenAI model ids reach the vendors' rows through `bareModelName`) and Mistral, by usage
 * bucket. Patterns are matched (case ignored) against the model name as sent and in its bare
 * form (see ./cost.ts), and tried in order: a more specific row comes before a broader one.
 *
 * Standard tier, on-demand, prompts within the base context tier (Gemini Pro's and Claude's
 * long-context prices, batch, flex and priority tiers, and Bedrock's regional surcharge are not
 * modelled). Cache writes are Anthropic's 5-minute writes (1.25 times input); a bucket without a
 * price of its own costs what `input` or `output` costs.
 *
 * Sources, checked on {@link MODEL_PRICES_DATE}: Langfuse's default model definitions
 * (`worker/src/constants/default-model-prices.json`, as of 2026-08-21), the providers' own model
 * catalogs as published in October 2026 (the newer models: GPT-6 and GPT-5.6, Claude Opus 5.5,
 * Fable 5.1 and Sonnet 5, Gemini 3.8 Flash, Mistral's 2026 releases), and Amazon Bedrock's list
 * prices for Nova. Override or add rows with `--prices <file>`.
 */
import type { ModelPrice } from '../types.js';

/** When the bundled prices were last checked against their sources. */
export const MODEL_PRICES_DATE = '2026-11-28';

/** `-2025-08-07` and friends after an OpenAI model's name. */
const DATED = '(-\\d{4}-\\d{2}-\\d{2})?';
/** `-20250929` (or `-latest`) after an Anthropic model's name. */
const SNAPSHOT = '(-\\d{8}|-latest)?';
/** `-preview`, `-preview-09-2025`, `-001` after a Gemini model's name. */
const GEMINI = '(-preview(-\\d{2}-\\d{4})?|-\\d{3}|-latest)?';
/** `-2512`, `-latest` after a Mistral model's name. */
const MISTRAL = '(-\\d{4}|-latest)?';

/** `input`, cached `input_cache_read`, `output` (and Anthropic's `input_cache_write`). */
const p = (input: number, cacheRead: number | undefined, output: number, cacheWrite?: number): Record<string, number> => ({
  input,
  ...(cacheRead !== undefined && { input_cache_read: cacheRead }),
  ...(cacheWrite !== undefined && { input_cache_write: cacheWrite }),
  output,
});
/** Anthropic's buckets: cache reads at a tenth of input, 5-minute cache writes at 1.25 times. */
const claude = (input: number, output: number, cacheRead = input / 10): Record<string, number> => p(input, cacheRead, output, input * 1.25);

/** The bundled table, most specific rows first. */
export const MODEL_PRICES: readonly ModelPrice[] = [
  // OpenAI
  { model: 'gpt-6-astra', match: `^gpt-6-astra${DATED}$`, prices: p(10, 1, 50) },
  { model: 'gpt-6-sol', match: `^gpt-6-sol${DATED}$`, prices: p(2, 0.2, 10) },
  { model: 'gpt-6-luna', match: `^gpt-6-luna${DATED}$`, prices: p(0.1, 0.01, 0.5) },
  { model: 'gpt-5.6-sol', match: `^gpt-5\\.6-sol${DATED}$`, prices: p(4, 0.4, 20, 5) },
  { model: 'gpt-5.6-terra', match: `^gpt-5\\.6-terra${DATED}$`, prices: p(2, 0.2, 12, 2.5) },
  { model: 'gpt-5.6-luna', match: `^gpt-5\\.6-luna${DATED}$`, prices: p(0.2, 0.02, 1.2, 0.25) },
  { model: 'gpt-5.5-pro', match: `^gpt-5\\.5-pro${DATED}$`, prices: p(30, undefined, 180) },
  { model: 'gpt-5.5', match: `^gpt-5\\.5${DATED}$`, prices: p(5, 0.5, 30) },
  { model: 'gpt-5.4-pro', match: `^gpt-5\\.4-pro${DATED}$`, prices: p(30, undefined, 180) },
  { model: 'gpt-5.4-mini', match: `^gpt-5\\.4-mini${DATED}$`, prices: p(0.75, 0.075, 4.5) },
  { model: 'gpt-5.4-nano', match: `^gpt-5\\.4-nano${DATED}$`, prices: p(0.2, 0.02, 1.25) },
  { model: 'gpt-5.4', match: `^gpt-5\\.4${DATED}$`, prices: p(2.5, 0.25, 15) },
  { model: 'gpt-5.3-codex', match: `^gpt-5\\.3-(codex(-spark)?|chat-latest)${DATED}$`, prices: p(1.75, 0.175, 14) },
  { model: 'gpt-5.2-pro', match: `^gpt-5\\.2-pro${DATED}$`, prices: p(21, undefined, 168) },
  { model: 'gpt-5.2', match: `^gpt-5\\.2(-chat-latest|-codex)?${DATED}$`, prices: p(1.75, 0.175, 14) },
  { model: 'gpt-5.1', match: `^gpt-5\\.1(-chat-latest|-codex(-max)?)?${DATED}$`, prices: p(1.25, 0.125, 10) },
  { model: 'gpt-5-pro', match: `^gpt-5-pro${DATED}$`, prices: p(15, undefined, 120) },
  { model: 'gpt-5-mini', match: `^gpt-5-mini${DATED}$`, prices: p(0.25, 0.025, 2) },
  { model: 'gpt-5-nano', match: `^gpt-5-nano${DATED}$`, prices: p(0.05, 0.005, 0.4) },
  { model: 'gpt-5', match: `^gpt-5(-chat-latest|-codex)?${DATED}$`, prices: p(1.25, 0.125, 10) },
  { model: 'gpt-4.1-mini', match: `^gpt-4\\.1-mini${DATED}$`, prices: p(0.4, 0.1, 1.6) },
  { model: 'gpt-4.1-nano', match: `^gpt-4\\.1-nano${DATED}$`, prices: p(0.1, 0.025, 0.4) },
  { model: 'gpt-4.1', match: `^gpt-4\\.1${DATED}$`, prices: p(2, 0.5, 8) },
  { model: 'gpt-4o-mini', match: `^gpt-4o-mini${DATED}$`, prices: p(0.15, 0.075, 0.6) },
  { model: 'gpt-4o-2024-05-13', match: '^gpt-4o-2024-05-13$', prices: p(5, undefined, 15) },
  { model: 'gpt-4o', match: `^(gpt-4o|chatgpt-4o-latest)${DATED}$`, prices: p(2.5, 1.25, 10) },
  { model: 'o4-mini', match: `^o4-mini${DATED}$`, prices: p(1.1, 0.275, 4.4) },
  { model: 'o3-pro', match: `^o3-pro${DATED}$`, prices: p(20, undefined, 80) },
  { model: 'o3-mini', match: `^o3-mini${DATED}$`, prices: p(1.1, 0.55, 4.4) },
  { model: 'o3', match: `^o3${DATED}$`, prices: p(2, 0.5, 8) },
  { model: 'o1-pro', match: `^o1-pro${DATED}$`, prices: p(150, undefined, 600) },
  { model: 'o1', match: `^o1${DATED}$`, prices: p(15, 7.5, 60) },
  { model: 'gpt-4-turbo', match: `^gpt-4-turbo(-preview)?${DATED}$`, prices: p(10, undefined, 30) },
  { model: 'gpt-4', match: '^gpt-4(-0613)?$', prices: p(30, undefined, 60) },
  { model: 'gpt-3.5-turbo', match: '^gpt-3\\.5-turbo(-0125)?$', prices: p(0.5, undefined, 1.5) },
  { model: 'text-embedding-3-small', prices: { input: 0.02 } },
  { model: 'text-embedding-3-large', prices: { input: 0.13 } },
  { model: 'text-embedding-ada-002', prices: { input: 0.1 } },

  // Anthropic (and Claude on Bedrock and Vertex AI)
  { model: 'claude-opus-5-5', match: `^claude-opus-5-5${SNAPSHOT}$`, prices: claude(4, 20, 0.2) },
  { model: 'claude-opus-5', match: `^claude-opus-5${SNAPSHOT}$`, prices: claude(5, 25) },
  { model: 'claude-fable-5-1', match: `^claude-fable-5-1${SNAPSHOT}$`, prices: claude(10, 50, 0.25) },
  { model: 'claude-fable-5', match: `^claude-fable-5${SNAPSHOT}$`, prices: claude(10, 50) },
  { model: 'claude-mythos-5', match: `^claude-mythos-5${SNAPSHOT}$`, prices: claude(10, 50) },
  { model: 'claude-sonnet-5', match: `^claude-sonnet-5${SNAPSHOT}$`, prices: claude(2, 10) },
  { model: 'claude-opus-4-5', match: `^claude-opus-4-[5-8]${SNAPSHOT}$`, prices: claude(5, 25) },
  { model: 'claude-opus-4-1', match: `^claude-opus-4(-1|-0)?${SNAPSHOT}$`, prices: claude(15, 75) },
  { model: 'claude-sonnet-4', match: `^claude-sonnet-4(-[056])?${SNAPSHOT}$`, prices: claude(3, 15) },
  { model: 'claude-haiku-4-5', match: `^(claude-haiku-4-5|claude-4-5-haiku)${SNAPSHOT}$`, prices: claude(1, 5) },
  { model: 'claude-3-7-sonnet', match: `^claude-3[-.]7-sonnet${SNAPSHOT}$`, prices: claude(3, 15) },
  { model: 'claude-3-5-sonnet', match: `^claude-3[-.]5-sonnet${SNAPSHOT}$`, prices: claude(3, 15) },
  { model: 'claude-3-5-haiku', match: `^claude-3[-.]5-haiku${SNAPSHOT}$`, prices: claude(0.8, 4) },
  { model: 'claude-3-opus', match: `^claude-3-opus${SNAPSHOT}$`, prices: claude(15, 75) },
  { model: 'claude-3-haiku', match: `^claude-3-haiku${SNAPSHOT}$`, prices: p(0.25, 0.03, 1.25, 0.3) },

  // Google (Gemini API)
  { model: 'gemini-3.8-flash', match: `^gemini-3\\.8-flash${GEMINI}$`, prices: p(0.75, 0.075, 3.75) },
  { model: 'gemini-3.7-flash', match: `^gemini-3\\.7-flash${GEMINI}$`, prices: p(0.75, 0.075, 3.75) },
  { model: 'gemini-3.6-flash', match: `^gemini-3\\.6-flash${GEMINI}$`, prices: p(0.75, 0.075, 3.75) },
  { model: 'gemini-3.5-flash-lite', match: `^gemini-3\\.5-flash-lite${GEMINI}$`, prices: p(0.3, 0.03, 2.5) },
  { model: 'gemini-3.5-flash', match: `^(gemini-3\\.5-flash|gemini-flash-latest)${GEMINI}$`, prices: p(1.5, 0.15, 9) },
  { model: 'gemini-3.1-flash-lite', match: `^(gemini-3\\.1-flash-lite|gemini-flash-lite-latest)${GEMINI}$`, prices: p(0.25, 0.025, 1.5) },
  { model: 'gemini-3.1-pro', match: `^gemini-3(\\.1)?-pro${GEMINI}$`, prices: p(2, 0.2, 12) },
  { model: 'gemini-3-flash', match: `^gemini-3-flash${GEMINI}$`, prices: p(0.5, 0.05, 3) },
  { model: 'gemini-2.5-pro', match: `^gemini-2\\.5-pro${GEMINI}$`, prices: p(1.25, 0.125, 10) },
  { model: 'gemini-2.5-flash-lite', match: `^gemini-2\\.5-flash-lite${GEMINI}$`, prices: p(0.1, 0.01, 0.4) },
  { model: 'gemini-2.5-flash', match: `^gemini-2\\.5-flash${GEMINI}$`, prices: p(0.3, 0.03, 2.5) },
  { model: 'gemini-2.0-flash-lite', match: `^gemini-2\\.0-flash-lite${GEMINI}$`, prices: p(0.075, undefined, 0.3) },
  { model: 'gemini-2.0-flash', match: `^gemini-2\\.0-flash${GEMINI}$`, prices: p(0.1, 0.025, 0.4) },

  // Amazon Bedrock: Nova
  { model: 'nova-premier', prices: p(2.5, undefined, 12.5) },
  { model: 'nova-2-pro', match: '^nova-2-pro(-preview(-\\d{8})?)?$', prices: p(2.1875, 0.546875, 17.5) },
  { model: 'nova-2-lite', prices: p(0.3, 0.075, 2.5) },
  { model: 'nova-pro', prices: p(0.8, 0.2, 3.2) },
  { model: 'nova-lite', prices: p(0.06, 0.015, 0.24) },
  { model: 'nova-micro', prices: p(0.035, 0.00875, 0.14) },

  // Mistral
  { model: 'mistral-large-3', match: `^mistral-large(-2512|-3|-latest)$`, prices: p(0.5, 0.05, 1.5) },
  { model: 'mistral-large-2411', prices: p(2, 0.2, 6) },
  { model: 'mistral-medium-3.5', match: `^mistral-medium(-2604|-3\\.5|-latest)?$`, prices: p(1.5, 0.15, 7.5) },
  { model: 'mistral-medium-3', match: `^mistral-medium-(2505|2508|3|3\\.1)$`, prices: p(0.4, 0.04, 2) },
  { model: 'mistral-small-4', match: `^mistral-small(-2603|-4|-latest)?$`, prices: p(0.15, 0.015, 0.6) },
  { model: 'mistral-small-3.2', match: `^mistral-small-(2506|2503|2501|3\\.[12])$`, prices: p(0.1, 0.01, 0.3) },
  { model: 'magistral-medium', match: `^magistral-medium${MISTRAL}$`, prices: p(2, 0.2, 5) },
  { model: 'magistral-small', match: `^magistral-small${MISTRAL}$`, prices: p(0.5, 0.05, 1.5) },
  { model: 'devstral-small', match: `^devstral-small${MISTRAL}$`, prices: p(0.1, 0.01, 0.3) },
  { model: 'devstral', match: `^devstral(-medium)?${MISTRAL}$`, prices: p(0.4, 0.04, 2) },
  { model: 'codestral', match: `^codestral${MISTRAL}$`, prices: p(0.3, 0.03, 0.9) },
  { model: 'ministral-8b', match: `^ministral-8b${MISTRAL}$`, prices: p(0.1, 0.01, 0.1) },
  { model: 'ministral-3b', match: `^ministral-3b${MISTRAL}$`, prices: p(0.04, 0.004, 0.04) },
  { model: 'mistral-nemo', match: `^(open-)?mistral-nemo${MISTRAL}$`, prices: p(0.15, 0.015, 0.15) },
  { model: 'pixtral-large', match: `^pixtral-large${MISTRAL}$`, prices: p(2, 0.2, 6) },
  { model: 'pixtral-12b', match: `^pixtral-12b${MISTRAL}$`, prices: p(0.15, 0.015, 0.15) },
  { model: 'mistral-embed', prices: { input: 0.1 } },
];
