// A stand-in for the OpenAI API, mounted on the example app itself so the demo needs no key and no
// network: `POST /fake-openai/v1/chat/completions` answers a fixed completion (with usage), and
// says it saw the picture when the last message carries an image.
import express from 'express';

export function fakeOpenAI() {
  const router = express.Router();
  router.post('/v1/chat/completions', express.json({ limit: '10mb' }), (req, res) => {
    const last = req.body?.messages?.at(-1);
    const sawImage = Array.isArray(last?.content) && last.content.some((part) => part.type === 'image_url');
    res.json({
      id: 'chatcmpl-demo',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: `${req.body?.model ?? 'gpt-demo'}-2026`,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: sawImage
              ? 'A sun setting over a dark sea, under an orange and violet sky.'
              : 'A span is one timed step of a trace; a generation is a span for one model call.',
            refusal: null,
          },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: sawImage ? 96 : 24, completion_tokens: 16, total_tokens: sawImage ? 112 : 40 },
    });
  });
  return router;
}
