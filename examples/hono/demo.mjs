// Serves the example app on Node.js (@hono/node-server) on an ephemeral port, sends a few
// realistic requests, prints the answers, closes the server and flushes. Reads OBS_BASE_URL,
// OBS_PUBLIC_KEY and OBS_SECRET_KEY from the environment (the root `npm run demo` sets them).
import { serve } from '@hono/node-server';
import { getObsHandle } from '@obs/core';
import { sendDemoRequests } from '../demo-requests.mjs';
import { createApp } from './src/app.js';

const server = await new Promise((resolve) => {
  const s = serve({ fetch: createApp().fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
});
await sendDemoRequests(`http://127.0.0.1:${server.address().port}/api/chat`, {
  question: 'What is an observation?',
  session: 'demo-session-3',
});
await new Promise((resolve) => server.close(resolve));
await getObsHandle()?.flush();
console.log('examples/hono: done (spans flushed)');
