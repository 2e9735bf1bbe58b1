// @ts-check
import { OpenTelemetry } from '@ai-sdk/otel';
import { withObs } from '@obs/next';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

/** The AI SDK's own mock model: the example needs no API key and no network. */
const model = new MockLanguageModelV4({
  modelId: 'mock-gpt',
  doGenerate: async () => ({
    content: [{ type: 'text', text: 'Lisbon is the capital of Portugal.' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 7, text: 7, reasoning: undefined },
    },
    warnings: [],
  }),
});

/**
 * POST /api/ai  { "message": "..." } -> { "answer" }
 * A Vercel AI SDK call with telemetry on: its spans nest under the request's root and its model
 * call reads as an obs generation (model, messages, usage).
 */
export const POST = withObs(
  /** @param {Request} req */
  async (req) => {
    const { message } = await req.json();
    const { text } = await generateText({
      model,
      prompt: String(message ?? ''),
      experimental_telemetry: { isEnabled: true, functionId: 'capital', integrations: [new OpenTelemetry()] },
    });
    return Response.json({ answer: text });
  },
  { identify: (req) => ({ userId: req.headers.get('x-user-id') ?? undefined, sessionId: 'ai-session' }) },
);
