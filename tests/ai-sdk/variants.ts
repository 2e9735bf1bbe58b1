/**
 * The Vercel AI SDK majors and telemetry integrations the AI SDK tests run against (the real
 * `ai` 5, 6 and 7 packages side by side, by npm alias), and each one's mock models, built from
 * one description of what the model returns. A variant also says which usage details its spans
 * report, so a test derives what obs must show from what the call reported.
 */
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import * as ai7 from 'ai';
import * as ai7test from 'ai/test';
import * as ai5 from 'ai5';
import * as ai5test from 'ai5/test';
import * as ai6 from 'ai6';
import * as ai6test from 'ai6/test';

// The three majors' types differ in detail; the tests drive them through one loose surface.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Loose = any;

/** What the mock model answers for one call. */
export type Turn = { text: string } | { toolCall: { id: string; name: string; input: Record<string, unknown> } };

/** Token counts every mock call reports: 100 in (40 cache reads, 10 cache writes), 30 out (10 reasoning). */
export const USAGE = { input: 100, cacheRead: 40, cacheWrite: 10, output: 30, reasoning: 10 };

export interface Variant {
  name: string;
  ai: Loose;
  /** Model-spec version of the major's mock models: 2 (AI SDK 5), 3 (6), 4 (7). */
  spec: 2 | 3 | 4;
  /** The integration passed per call (AI SDK 7), none for 5 and 6 (their built-in tracer). */
  integration?: () => unknown;
  /** GenAI semantic-convention spans (`gen_ai.*`) rather than the AI SDK's `ai.*` spans. */
  semconv: boolean;
  /** The usage details this variant's spans report for a generateText / streamText model call. */
  reports: { generate: UsageReport; stream: UsageReport };
}

interface UsageReport {
  cacheRead: boolean;
  cacheWrite: boolean;
  reasoning: boolean;
}

const ALL: UsageReport = { cacheRead: true, cacheWrite: true, reasoning: true };

export const VARIANTS: Variant[] = [
  {
    name: 'AI SDK 5, built-in ai.* spans',
    ai: { ...ai5, test: ai5test },
    spec: 2,
    semconv: false,
    // AI SDK 5 puts no usage details on generateText's spans; streamText's carry cache reads and reasoning.
    reports: {
      generate: { cacheRead: false, cacheWrite: false, reasoning: false },
      stream: { cacheRead: true, cacheWrite: false, reasoning: true },
    },
  },
  {
    name: 'AI SDK 6, built-in ai.* spans',
    ai: { ...ai6, test: ai6test },
    spec: 3,
    semconv: false,
    reports: { generate: ALL, stream: ALL },
  },
  {
    name: 'AI SDK 7, @ai-sdk/otel LegacyOpenTelemetry (ai.* spans)',
    ai: { ...ai7, test: ai7test },
    spec: 4,
    integration: () => new LegacyOpenTelemetry(),
    semconv: false,
    reports: { generate: ALL, stream: ALL },
  },
  {
    name: 'AI SDK 7, @ai-sdk/otel OpenTelemetry (GenAI semconv spans)',
    ai: { ...ai7, test: ai7test },
    spec: 4,
    integration: () => new OpenTelemetry(),
    semconv: true,
    // Reasoning tokens are a supplemental attribute, off by default.
    reports: { generate: { ...ALL, reasoning: false }, stream: { ...ALL, reasoning: false } },
  },
  {
    name: 'AI SDK 7, @ai-sdk/otel OpenTelemetry with usage: true (GenAI semconv spans)',
    ai: { ...ai7, test: ai7test },
    spec: 4,
    integration: () => new OpenTelemetry({ usage: true }),
    semconv: true,
    reports: { generate: ALL, stream: ALL },
  },
];

/** `experimental_telemetry` for a call of this variant. */
export function telemetry(v: Variant): Record<string, unknown> {
  return { isEnabled: true, functionId: 'weather-bot', ...(v.integration ? { integrations: [v.integration()] } : {}) };
}

/** The usage details obs must show for one mock call, given what the variant reports. */
export function expectedUsage(report: UsageReport): Record<string, number> {
  const u: Record<string, number> = { total: USAGE.input + USAGE.output };
  const read = report.cacheRead ? USAGE.cacheRead : 0;
  const write = report.cacheWrite ? USAGE.cacheWrite : 0;
  const reasoning = report.reasoning ? USAGE.reasoning : 0;
  u['input'] = USAGE.input - read - write;
  u['output'] = USAGE.output - reasoning;
  if (read) u['input_cache_read'] = read;
  if (write) u['input_cache_write'] = write;
  if (reasoning) u['output_reasoning'] = reasoning;
  return u;
}

function usage(spec: Variant['spec']): unknown {
  if (spec === 2) {
    return {
      inputTokens: USAGE.input,
      outputTokens: USAGE.output,
      totalTokens: USAGE.input + USAGE.output,
      cachedInputTokens: USAGE.cacheRead,
      reasoningTokens: USAGE.reasoning,
    };
  }
  return {
    inputTokens: {
      total: USAGE.input,
      noCache: USAGE.input - USAGE.cacheRead - USAGE.cacheWrite,
      cacheRead: USAGE.cacheRead,
      cacheWrite: USAGE.cacheWrite,
    },
    outputTokens: { total: USAGE.output, text: USAGE.output - USAGE.reasoning, reasoning: USAGE.reasoning },
  };
}

const finish = (spec: Variant['spec'], reason: string) => (spec === 2 ? reason : { unified: reason, raw: reason });

function content(turn: Turn): unknown[] {
  if ('text' in turn) return [{ type: 'text', text: turn.text }];
  const { id, name, input } = turn.toolCall;
  return [{ type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input) }];
}

/**
 * A mock language model that answers the turns in order (the last one repeats). `fail` makes
 * every call throw; `pauseAfterFirstChunk` holds a stream after its first text delta so a test
 * can abort it there (a function is called there: a timed pause starts at the delta, not before).
 */
export function mockModel(
  v: Variant,
  turns: Turn[],
  opts: { fail?: string; pauseAfterFirstChunk?: Promise<void> | (() => Promise<void>) } = {},
): { model: unknown; calls: () => number } {
  let calls = 0;
  const next = () => turns[Math.min(calls++, turns.length - 1)]!;
  const Mock = v.ai.test[`MockLanguageModelV${v.spec}`];
  const model = new Mock({
    modelId: 'mock-model',
    doGenerate: async () => {
      if (opts.fail) throw new Error(opts.fail);
      const turn = next();
      return {
        content: content(turn),
        finishReason: finish(v.spec, 'text' in turn ? 'stop' : 'tool-calls'),
        usage: usage(v.spec),
        warnings: [],
      };
    },
    doStream: async () => {
      if (opts.fail) throw new Error(opts.fail);
      const turn = next();
      const text = 'text' in turn ? turn.text : '';
      const half = Math.ceil(text.length / 2);
      const hold = opts.pauseAfterFirstChunk;
      let pause: Promise<void> | undefined;
      const chunks: unknown[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: text.slice(0, half) },
        { type: 'text-delta', id: 't', delta: text.slice(half) },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: finish(v.spec, 'stop'), usage: usage(v.spec) },
      ];
      const stream = new ReadableStream({
        async pull(controller) {
          const chunk = chunks.shift();
          if (!chunk) return controller.close();
          // Chunks a few ms apart, so time to first chunk falls strictly inside the call.
          await new Promise((r) => setTimeout(r, 5));
          controller.enqueue(chunk);
          if (hold && (chunk as { type: string }).type === 'text-delta') await (pause ??= typeof hold === 'function' ? hold() : hold);
        },
      });
      return { stream };
    },
  });
  return { model, calls: () => calls };
}

/** A mock embedding model that embeds one value per call; counts its calls. */
export function mockEmbeddingModel(v: Variant, tokensPerValue: number): { model: unknown; calls: () => number } {
  let calls = 0;
  const Mock = v.ai.test[`MockEmbeddingModelV${v.spec}`];
  const model = new Mock({
    modelId: 'mock-embedder',
    maxEmbeddingsPerCall: 1,
    doEmbed: async ({ values }: { values: string[] }) => {
      calls++;
      return { embeddings: values.map(() => [0.1, 0.2]), usage: { tokens: tokensPerValue * values.length }, warnings: [] };
    },
  });
  return { model, calls: () => calls };
}
