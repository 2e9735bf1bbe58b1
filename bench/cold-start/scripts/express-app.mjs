// The Express 5 app of express-plain.mjs and express.mjs: `first` middlewares, express.json() and
// one route, answering one request over HTTP, then closed.
import express from 'express';

globalThis.coldMark?.('imported');

/** Builds the app with `first` in front, answers one request, closes. */
export async function answerOnce(first = []) {
  const app = express();
  for (const m of first) app.use(m);
  app.use(express.json());
  app.post('/chat', (req, res) => res.json({ answer: `hi ${req.body.name}` }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  globalThis.coldMark?.('init');
  const res = await fetch(`http://127.0.0.1:${server.address().port}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'cold' }),
  });
  await res.json();
  globalThis.coldMark?.('request');
  server.close();
}
