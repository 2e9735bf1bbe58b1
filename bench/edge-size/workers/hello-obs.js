// The hello-world Worker traced with @obs/core: one observation per request, flushed through waitUntil.
import { initObs, startActiveObservation } from '@obs/core';

export default {
  async fetch(_request, env, ctx) {
    const obs = initObs({ env });
    const body = await startActiveObservation('hello', async () => 'hello');
    ctx.waitUntil(obs.flush());
    return new Response(body);
  },
};
