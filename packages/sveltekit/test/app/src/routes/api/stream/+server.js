import { observe } from '@obs/core';

/** A model streaming its answer, started in the endpoint as an AI SDK call would be. */
const tokens = observe(
  async function* tokens() {
    for (const word of ['one', 'two', 'three']) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      yield word;
    }
  },
  { name: 'tokens', asType: 'generation' },
);

/** Server-sent events, as a chat UI would read an answer. */
export function GET() {
  const stream = tokens();
  const encoder = new TextEncoder();
  const body = new ReadableStream({
    async pull(controller) {
      const { done, value } = await stream.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(`data: ${value}\n\n`));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}
