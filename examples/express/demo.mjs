// Starts the example app on an ephemeral port, sends a few realistic requests, prints the
// answers, and shuts down (the server's close flushes the spans). Reads OBS_BASE_URL,
// OBS_PUBLIC_KEY and OBS_SECRET_KEY from the environment (the root `npm run demo` sets them).
import { readFile } from 'node:fs/promises';
import { sendDemoRequests } from '../demo-requests.mjs';
import { createApp } from './src/app.js';

const server = createApp().listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
await sendDemoRequests(`${origin}/api/chat`, { question: 'What is a trace?', session: 'demo-session-1' });

// The assistant: a Vercel AI SDK call, a raw OpenAI SDK call, and an image (each a generation).
const alice = { authorization: 'Bearer token-alice', 'x-session-id': 'demo-session-1', 'content-type': 'application/json' };
const image = `data:image/png;base64,${(await readFile(new URL('./assets/sunset.png', import.meta.url))).toString('base64')}`;
for (const [path, body] of [
  ['/api/assist/ai', { question: 'What is an observation?' }],
  ['/api/assist/openai', { question: 'What is a span?' }],
  ['/api/assist/vision', { question: 'What is in this picture?', image }],
]) {
  const res = await fetch(`${origin}${path}`, { method: 'POST', headers: alice, body: JSON.stringify(body) });
  console.log(`POST ${path} -> ${res.status} trace ${res.headers.get('x-obs-trace-id')}`, await res.json());
}
await new Promise((resolve) => server.close(resolve));
console.log('examples/express: done (spans flushed on server.close(); the image was uploaded once and shows in the viewer)');
