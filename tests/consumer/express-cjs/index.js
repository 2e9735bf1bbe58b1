// An Express 5 CommonJS app as a new user writes it, with the packed tarballs installed.
const express = require('express');
const { getObsHandle, startActiveObservation } = require('@obs/core');
const { obsErrorHandler, obsMiddleware } = require('@obs/express');

async function main() {
  const app = express();
  app.use(obsMiddleware({ identify: (req) => ({ userId: String(req.headers['x-user'] ?? 'anonymous') }) }));
  app.use(express.json());
  app.post('/chat/:id', async (req, res) => {
    const answer = await startActiveObservation('answer', async (span) => {
      span.update({ input: req.body, output: 'cjs answer' });
      return 'cjs answer';
    });
    res.json({ answer });
  });
  app.use(obsErrorHandler());
  const server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const res = await fetch(`http://127.0.0.1:${server.address().port}/chat/1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': 'cjs-user' },
    body: JSON.stringify({ question: 'hi' }),
  });
  const body = await res.json();
  await new Promise((r) => server.close(r));
  await getObsHandle()?.shutdown();
  console.log(`RESULT ${JSON.stringify({ traceId: res.headers.get('x-obs-trace-id'), body })}`);
}
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
