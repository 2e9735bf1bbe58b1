// The Express app of the foreign-tracer scenarios (run after a setup file was `--require`d):
// obsMiddleware, then in one request an obs observation around the shared LLM work, a score and
// an API read; with NO_OBS=1 the same app without obs (the app tracer's baseline).
const { initObs, startActiveObservation } = require('@obs/core');
const { obsErrorHandler, obsMiddleware } = require('@obs/express');
const express = require('express');
const { answerQuestion, noObs, obsInitOptions, requestAndReport } = require('./chat-work.cjs');

async function main() {
  const obs = noObs ? undefined : initObs(obsInitOptions());
  const app = express();
  if (obs) app.use(obsMiddleware({ identify: () => ({ userId: 'user-1', tags: ['api'] }) }));
  app.use(express.json());
  app.post('/chat', async (req, res) => {
    const work = () => answerQuestion(req.body.question);
    const answer = obs ? await startActiveObservation('answer', work) : await work();
    if (obs) {
      // obs's own requests inside the request (besides the span export): a score and an API read, over fetch.
      obs.client.score.activeTrace({ name: 'helpful', value: 1 });
      await obs.client.api.health.health();
    }
    res.json({ answer });
  });
  if (obs) app.use(obsErrorHandler());
  const server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  await requestAndReport(
    server.address().port,
    () => obs?.mode ?? 'none',
    async () => {
      await new Promise((r) => server.close(r));
      await obs?.flush(); // the spans and the score
    },
  );
  await obs?.shutdown();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
