// Runs the example standalone: `OBS_BASE_URL=... OBS_PUBLIC_KEY=... OBS_SECRET_KEY=... npm start`
// (e.g. against `npx obs-local-server`). The plugin sets tracing up from the env; app.close() flushes.
import { createApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const app = await createApp();
await app.listen({ port });
console.log(`example-fastify listening on http://localhost:${port}`);
console.log(
  `try: curl -X POST localhost:${port}/api/chat/c-1 -H 'authorization: Bearer token-alice' -H 'content-type: application/json' -d '{"question":"what is a span?"}'`,
);
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => app.close().then(() => process.exit(0)));
