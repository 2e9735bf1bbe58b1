// The assistant routes: the three ways a TypeScript app calls a model, each traced as a
// generation under the request: a Vercel AI SDK call (its mock model; obs reads the AI SDK's
// spans), a raw OpenAI SDK call through `observeOpenAI` (against the app's own stand-in OpenAI
// endpoint, no key), and a multimodal message (an image as a data URI): obs uploads the image
// once and the trace shows it where the base64 was.
import { observeOpenAI } from '@obs/openai';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import express from 'express';
import OpenAI from 'openai';

/** The AI SDK's own mock model: no key, no network. */
const mockModel = new MockLanguageModelV4({
  modelId: 'mock-gpt',
  doGenerate: async () => ({
    content: [{ type: 'text', text: 'An observation is one step of a trace: a span, a generation, a tool call.' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 18, noCache: 18, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 15, text: 15, reasoning: undefined },
    },
    warnings: [],
  }),
});

/** An OpenAI client on the app's stand-in endpoint (`fake-openai.js`), traced by obs. */
function openai(req) {
  return observeOpenAI(
    new OpenAI({ apiKey: 'sk-demo-no-key', baseURL: `${req.protocol}://${req.get('host')}/fake-openai/v1`, maxRetries: 0 }),
  );
}

const SYSTEM = 'You are a helpful assistant for an observability product. Answer in one sentence.';

export function assistRoutes() {
  const router = express.Router();

  // 1. Vercel AI SDK: with telemetry on, its spans nest under the request and read as obs's.
  router.post('/ai', async (req, res) => {
    const { text } = await generateText({
      model: mockModel,
      system: SYSTEM,
      prompt: String(req.body?.question ?? 'What is an observation?'),
      experimental_telemetry: { isEnabled: true, functionId: 'assist-ai' },
    });
    res.json({ answer: text });
  });

  // 2. The OpenAI SDK called directly.
  router.post('/openai', async (req, res) => {
    const completion = await openai(req).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: String(req.body?.question ?? 'What is a span?') },
      ],
      temperature: 0.2,
    });
    res.json({ answer: completion.choices[0]?.message.content });
  });

  // 3. A multimodal message: the image goes to the model as a data URI.
  router.post('/vision', async (req, res) => {
    const image = req.body?.image;
    if (typeof image !== 'string' || !image.startsWith('data:image/')) return res.status(400).json({ error: 'image must be a data URI' });
    const completion = await openai(req).chat.completions.create({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: String(req.body?.question ?? 'What is in this picture?') },
            { type: 'image_url', image_url: { url: image, detail: 'low' } },
          ],
        },
      ],
    });
    res.json({ answer: completion.choices[0]?.message.content });
  });

  return router;
}
