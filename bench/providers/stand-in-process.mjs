// The provider APIs the bench calls and the peers' collectors, in their own process so that
// answering costs the measured processes nothing. Each provider file's `routes` gives a path's
// fixed answer, as JSON or as its streaming body (the request says which). Every other request is
// a peer's export (Sentry's envelopes, LangSmith's runs): answered `{}` and counted by sink.
// It listens twice, HTTP/1.1 and cleartext HTTP/2 (Bedrock Runtime's default), with the same
// answers. Sends { port, h2Port } over IPC; answers 'stats' with { sinks: { name: requests } };
// 'close' ends it.
import { createServer } from 'node:http';
import { createServer as createHttp2Server } from 'node:http2';
import { PROVIDERS } from './providers.mjs';

const routes = new Map();
for (const name of Object.keys(PROVIDERS)) {
  const provider = await import(`./${name}.mjs`);
  for (const [path, answer] of Object.entries(provider.routes)) routes.set(path, answer);
}
const sinks = new Map();
const sinkOf = (path) => (path.includes('/envelope') ? 'sentry' : path.includes('/runs') ? 'langsmith' : 'other');

const handle = (req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const path = (req.url ?? '').split('?')[0];
    const route = routes.get(path);
    if (!route) {
      sinks.set(sinkOf(path), (sinks.get(sinkOf(path)) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{}');
    }
    // A streaming request asks with a top-level `"stream":true`, or on a path of its own (Gemini, Bedrock).
    if (route.stream && route.isStream(body, path)) {
      res.writeHead(200, { 'content-type': route.stream.contentType });
      res.end(route.stream.body);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_bench' });
      res.end(route.json);
    }
  });
};
const server = createServer(handle);
server.keepAliveTimeout = 60_000;
const h2 = createHttp2Server(handle);
const listen = (s) => new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s.address().port)));
const [port, h2Port] = await Promise.all([listen(server), listen(h2)]);
process.send({ port, h2Port });
process.on('message', (msg) => {
  if (msg === 'stats') process.send({ sinks: Object.fromEntries(sinks) });
  if (msg === 'close') process.exit(0);
});
