// An Express 5 app on OpenTelemetry's SDK 3 line, with the packed obs packages. OBS_ORDER says when
// obs starts: `after` the NodeSDK (initObs() once the SDK started), `before` it (initObs() first,
// as an app whose first line it is), or `none` (the app without obs: the SDK's own baseline).
// One request: obs's request root, an observation, and the app's own span inside it.
const order = process.env.OBS_ORDER ?? 'after';
const options = { flushInterval: 0.05, flushOnExit: false };
const obs = order === 'before' ? require('@obs/core').initObs(options) : undefined;
const appExport = require('./otel-setup.cjs');
const handle = order === 'after' ? require('@obs/core').initObs(options) : obs;
const { trace } = require('@opentelemetry/api');
const express = require('express');

async function main() {
  const { startActiveObservation } = require('@obs/core');
  const { obsMiddleware } = require('@obs/express');
  const app = express();
  if (handle) app.use(obsMiddleware({ identify: () => ({ userId: 'sdk3-user' }) }));
  app.post('/chat', async (_req, res) => {
    const work = async () => {
      trace.getTracer('app-lib').startSpan('app-work').end();
      return 'sdk3 answer';
    };
    res.json({ answer: handle ? await startActiveObservation('answer', work) : await work() });
  });
  const server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const res = await fetch(`http://127.0.0.1:${server.address().port}/chat`, { method: 'POST' });
  const body = await res.json();
  await new Promise((r) => server.close(r));
  await handle?.flush();
  await handle?.shutdown();
  const traceId = res.headers.get('x-obs-trace-id');
  console.log(`RESULT ${JSON.stringify({ mode: handle?.mode ?? 'none', traceId, body, appSpans: await appExport() })}`);
}
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
