import { observe } from '@obs/core';

/** A model streaming its answer, started in the handler as an AI SDK call would be. */
const tokens = observe(
  async function* tokens() {
    for (const word of ['one', 'two', 'three']) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      yield word;
    }
  },
  { name: 'tokens', asType: 'generation' },
);

/** Server-sent events through h3's event stream, as a chat UI would read an answer. */
export default defineEventHandler(async (event) => {
  const stream = createEventStream(event);
  const words = tokens();
  void (async () => {
    for await (const word of words) await stream.push(word);
    await stream.close();
  })();
  return stream.send();
});
