// A Lambda-style handler as esbuild bundles one (AWS CDK's NodejsFunction, SAM's esbuild
// builder): @obs/core and @opentelemetry/api folded into one file. The handler flushes before it
// returns, as a function that is frozen after each invocation must.
import { initObs, startActiveObservation } from '@obs/core';

const obs = initObs({ flushOnExit: false });

export async function handler(event) {
  const answer = await startActiveObservation('lambda handler', async (observation) => {
    observation.update({ input: event });
    const text = `You asked: ${event.question}`;
    observation.update({ output: text });
    return text;
  });
  await obs.flush();
  return { statusCode: 200, body: answer };
}
