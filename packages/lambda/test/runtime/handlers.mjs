// Handlers the freeze suite runs in the stand-in runtime, each wrapped with `wrapHandler` and none
// calling `initObs()`: the wrapper starts obs from the `OBS_*` environment at the first invocation.
import { observe } from '@obs/core';
import { wrapHandler } from '@obs/lambda';
import { answer } from './answer.mjs';

/** An HTTP API chat route: a generation under the root; `crash` throws. */
export const chat = wrapHandler(
  async (event) => {
    const { message } = JSON.parse(event.body ?? '{}');
    if (message === 'crash') throw new Error('model unavailable');
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answer: await answer(message) }) };
  },
  { identify: (event) => ({ userId: event.requestContext?.authorizer?.jwt?.claims?.sub }) },
);

/** Any event: an SQS batch makes one child per message, each message answered. */
export const batch = wrapHandler(async (event) => {
  for (const record of event.Records ?? []) await answer(record.body);
  return { batchItemFailures: [] };
});

/** A callback handler that waits for the empty event loop (the runtime's default). */
export const callback = wrapHandler((event, _context, done) => {
  void answer(String(event.n)).then((text) => done(null, text));
});

/** Yields an answer word by word, like a model streaming tokens. */
const generate = observe(
  async function* generate(topic) {
    for (const word of `Five facts about ${topic}: old, large, loved, busy, green.`.split(' ')) {
      await new Promise((r) => setTimeout(r, 2));
      yield `${word} `;
    }
  },
  { name: 'generate', asType: 'generation' },
);

/** A streamed AI answer over a function URL: server-sent events behind an HTTP prelude. */
export const stream = awslambda.streamifyResponse(
  wrapHandler(async (event, responseStream) => {
    const out = awslambda.HttpResponseStream.from(responseStream, { statusCode: 200, headers: { 'content-type': 'text/event-stream' } });
    for await (const token of generate(event.queryStringParameters?.topic ?? 'Lisbon')) out.write(`data: ${token}\n\n`);
    out.end();
  }),
);
