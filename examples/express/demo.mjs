// Starts the example app on an ephemeral port, sends a few realistic requests, prints the
// answers, and shuts down (the server's close flushes the spans). Reads OBS_BASE_URL,
// OBS_PUBLIC_KEY and OBS_SECRET_KEY from the environment (the root `npm run demo` sets them).
import { sendDemoRequests } from '../demo-requests.mjs';
import { createApp } from './src/app.js';

const server = createApp().listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
await sendDemoRequests(`http://127.0.0.1:${server.address().port}/api/chat`, { question: 'What is a trace?', session: 'demo-session-1' });
await new Promise((resolve) => server.close(resolve));
console.log('examples/express: done (spans flushed on server.close())');
