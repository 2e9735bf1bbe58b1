// Starts the example app on an ephemeral port, sends a few realistic requests, prints the
// answers, and closes it (app.close() flushes the spans). Reads OBS_BASE_URL, OBS_PUBLIC_KEY and
// OBS_SECRET_KEY from the environment (the root `npm run demo` sets them).
import { sendDemoRequests } from '../demo-requests.mjs';
import { createApp } from './src/app.js';

const app = await createApp();
await sendDemoRequests(`${await app.listen({ port: 0, host: '127.0.0.1' })}/api/chat`, {
  question: 'What is a span?',
  session: 'demo-session-2',
});
await app.close();
console.log('examples/fastify: done (spans flushed on app.close())');
