// Runs the example standalone on Node.js: `OBS_BASE_URL=... OBS_PUBLIC_KEY=... OBS_SECRET_KEY=... npm start`
// (e.g. against `npx obs-local-server`). The middleware sets tracing up from the env; initObs
// flushes on SIGTERM and SIGINT.
import { serve } from '@hono/node-server';
import { createApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
serve({ fetch: createApp().fetch, port }, () => {
  console.log(`example-hono listening on http://localhost:${port}`);
  console.log(
    `try: curl -X POST localhost:${port}/api/chat/c-1 -H 'authorization: Bearer token-alice' -H 'content-type: application/json' -d '{"question":"what is an observation?"}'`,
  );
});
