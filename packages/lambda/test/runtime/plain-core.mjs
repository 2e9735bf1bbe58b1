// The same chat handler with plain `@obs/core` and no wrapper, as an app writes it from core's
// README: `initObs()` at start, `startActiveObservation` around the work. Nothing delivers the
// spans before the invocation settles: the batch leaves when its timer fires, in a later
// invocation's thawed time, or never.
import { initObs, startActiveObservation } from '@obs/core';

initObs();

export const handler = async (event) =>
  startActiveObservation('POST /chat/{id}', async (root) => {
    const { message } = JSON.parse(event.body ?? '{}');
    const text = await startActiveObservation(
      'answer',
      async (o) => {
        o.update({ input: message, output: `echo: ${message}` });
        return `echo: ${message}`;
      },
      { asType: 'generation' },
    );
    root.update({ input: { message }, output: { answer: text } });
    return { statusCode: 200, headers: { 'x-obs-trace-id': root.traceId }, body: JSON.stringify({ answer: text }) };
  });
