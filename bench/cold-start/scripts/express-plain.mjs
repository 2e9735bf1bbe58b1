// Express 5 alone: an app with one route answering one request over HTTP, then closed (the
// baseline of express.mjs).
import express from 'express';

globalThis.coldMark?.('imported');
const app = express();
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
