// Runs the example standalone: `OBS_BASE_URL=... OBS_PUBLIC_KEY=... OBS_SECRET_KEY=... npm start`
// (e.g. against `npx obs-local-server`). The middleware sets tracing up from the env on the
// first request and flushes when the server closes.
import { createApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const server = createApp().listen(port, () => {
  console.log(`example-express listening on http://localhost:${port}`);
  console.log(
    `try: curl -X POST localhost:${port}/api/chat/c-1 -H 'authorization: Bearer token-alice' -H 'content-type: application/json' -d '{"question":"what is a trace?"}'`,
  );
});

process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
