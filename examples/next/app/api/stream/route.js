// @ts-check
import { observe } from '@obs/core';
import { withObs } from '@obs/next';

/** Yields an answer word by word, like a model streaming tokens. */
const generate = observe(
  /** @param {string} topic */
  async function* generate(topic) {
    const words = `Here are five facts about ${topic}: it is old, it is large, it is loved, it is busy, it is green.`.split(' ');
    for (const word of words) {
      await new Promise((resolve) => setTimeout(resolve, 15));
      yield `${word} `;
    }
  },
  { name: 'generate', asType: 'generation' },
);

/**
 * GET /api/stream?topic=paris -> text/plain streamed word by word. The root's output is the whole
 * text, reassembled as it streams; the client gets each chunk as soon as it is made.
 */
export const GET = withObs(
  /** @param {Request} req */
  async (req) => {
    const topic = new URL(req.url).searchParams.get('topic') ?? 'Paris';
    const tokens = generate(topic);
    const encoder = new TextEncoder();
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await tokens.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      },
      async cancel() {
        await tokens.return(undefined);
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
  },
);
