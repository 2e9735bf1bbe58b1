// @obs/express: the app of express-plain.mjs with obsMiddleware(), which starts obs with the
// defaults on its first request; that request's observation leaves with obs's flush at exit.
import { obsMiddleware } from '@obs/express';
import express from 'express';

globalThis.coldMark?.('imported');
const app = express();
app.use(obsMiddleware());
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
