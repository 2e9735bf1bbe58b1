// The Express app of the foreign-tracer scenarios (run after a setup file was `--require`d):
// obsMiddleware, then in one request an obs observation around the shared LLM work.
const { initObs, startActiveObservation } = require('@obs/core');
const { obsErrorHandler, obsMiddleware } = require('@obs/express');
const express = require('express');
const { answerQuestion, obsInitOptions, requestAndReport } = require('./chat-work.cjs');

async function main() {
  const obs = initObs(obsInitOptions());
  const app = express();
  app.use(obsMiddleware({ identify: () => ({ userId: 'user-1', tags: ['api'] }) }));
  app.use(express.json());
  app.post('/chat', async (req, res) => {
    const answer = await startActiveObservation('answer', () => answerQuestion(req.body.question));
    res.json({ answer });
  });
  app.use(obsErrorHandler());
  const server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  await requestAndReport(
    server.address().port,
    () => obs.mode,
    async () => {
      await new Promise((r) => server.close(r));
      await obs.flush();
    },
  );
  await obs.shutdown();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
