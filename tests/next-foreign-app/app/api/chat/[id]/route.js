// One route: withObs's request root, an obs observation with the app's own span inside it, and a
// score (obs's own requests: span export and scores). With NO_OBS=1 the same work without obs.
import { startActiveObservation } from '@obs/core';
import { withObs } from '@obs/next';
import { trace } from '@opentelemetry/api';

export const dynamic = 'force-dynamic';

const obs = process.env.NO_OBS !== '1';

const appWork = () =>
  trace.getTracer('app-lib').startActiveSpan('app-work', (span) => {
    span.end();
    return 'next answer';
  });

/** @param {Request} _req @param {{ params: Promise<{ id: string }> }} ctx */
async function chat(_req, { params }) {
  const { id } = await params;
  const answer = obs ? await startActiveObservation('answer', async () => appWork()) : appWork();
  if (obs) (await import('@obs/core')).getObsHandle()?.client.score.activeTrace({ name: 'helpful', value: 1 });
  return Response.json({ id, answer });
}

export const POST = obs ? withObs(chat) : chat;
