/**
 * What obs sees of an AI SDK 7 model call's stream, for the span readings. AI SDK 7's
 * integrations (`@ai-sdk/otel`) write a streamed model call's text and first-chunk time onto its
 * span only when the stream finishes: a stream the caller cancels (an `abortSignal`) ends its span
 * with neither. The integration obs registers runs each model call through `observeModelCall`,
 * inside the integration's context (the model-call span active): the stream passes through a
 * transform that notes its first output chunk and accumulates its text, reasoning and tool calls,
 * kept by span until the span is read. One `TransformStream` per streamed call; nothing for a
 * `generateText` call, whose result has no stream.
 */
import { trace } from '@opentelemetry/api';
import { isDict } from '../util/guards.js';
import { type LlmToolCall, toolCall } from './messages.js';

/** What a model call's stream delivered before its span ended. */
export interface StreamProgress {
  /** When the first output chunk (text, reasoning, a tool call or a file) arrived, ms since the epoch. */
  firstChunkAt?: number;
  text: string;
  reasoning: string;
  toolCalls: LlmToolCall[];
}

/** Chunk types that are the model's output (the first of them is the completion start). */
const OUTPUT_CHUNKS = new Set(['text-delta', 'reasoning-delta', 'tool-input-start', 'tool-input-delta', 'tool-call', 'file']);

const progressBySpan = new WeakMap<object, StreamProgress>();

/**
 * Runs a model call (`execute` of the AI SDK's `executeLanguageModelCall`) and, when its result
 * is a stream, returns the result with the stream observed for the active span. Never throws
 * beyond what `execute` throws.
 */
export async function observeModelCall<T>(execute: () => PromiseLike<T>): Promise<T> {
  const span = trace.getActiveSpan();
  const result = await execute();
  if (!span || !isDict(result) || typeof ReadableStream === 'undefined' || !(result['stream'] instanceof ReadableStream)) return result;
  const progress: StreamProgress = { text: '', reasoning: '', toolCalls: [] };
  progressBySpan.set(span, progress);
  const observed = result['stream'].pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        note(progress, chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  return { ...result, stream: observed } as T;
}

/** What the model call's stream delivered, when obs observed it (the span's own model call). */
export function streamProgress(span: object): StreamProgress | undefined {
  return progressBySpan.get(span);
}

function note(progress: StreamProgress, chunk: unknown): void {
  if (!isDict(chunk)) return;
  const type = chunk['type'];
  if (typeof type !== 'string' || !OUTPUT_CHUNKS.has(type)) return;
  progress.firstChunkAt ??= Date.now();
  const delta = chunk['delta'] ?? chunk['textDelta'];
  if (type === 'text-delta' && typeof delta === 'string') progress.text += delta;
  else if (type === 'reasoning-delta' && typeof delta === 'string') progress.reasoning += delta;
  else if (type === 'tool-call') progress.toolCalls.push(toolCall(chunk['toolCallId'], chunk['toolName'], chunk['input'] ?? chunk['args']));
}
