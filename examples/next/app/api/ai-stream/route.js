// @ts-check
import { OpenTelemetry } from '@ai-sdk/otel';
import { withObs } from '@obs/next';
import { streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

const WORDS = ['Lisbon ', 'is ', 'the ', 'capital ', 'of ', 'Portugal.'];

/** The AI SDK's own mock model, streaming its answer word by word: no API key, no network. */
const model = new MockLanguageModelV4({
  modelId: 'mock-gpt',
  doStream: async () => {
    const parts = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      ...WORDS.map((delta) => ({ type: 'text-delta', id: 't', delta })),
      { type: 'text-end', id: 't' },
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 6, text: 6, reasoning: undefined },
        },
      },
    ];
    const stream = new ReadableStream({
      async pull(controller) {
        const part = parts.shift();
        if (!part) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 2));
        controller.enqueue(/** @type {any} */ (part));
      },
    });
    return { stream };
  },
});

/**
 * POST /api/ai-stream  { "message": "..." } -> the answer as streamed text. The AI SDK's spans
 * (its generation included) end when the stream does, and are delivered after it, under the
 * request's trace.
 */
export const POST = withObs(
  /** @param {Request} req */
  async (req) => {
    const { message } = await req.json();
    const result = streamText({
      model,
      prompt: String(message ?? ''),
      experimental_telemetry: { isEnabled: true, functionId: 'capital-stream', integrations: [new OpenTelemetry()] },
    });
    return result.toTextStreamResponse();
  },
  { identify: (req) => ({ userId: req.headers.get('x-user-id') ?? undefined }) },
);
