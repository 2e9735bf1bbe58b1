// The requests `npm run demo` sends to each framework example (express, fastify, hono serve the
// same chat API under /api/chat): a question answered by a LangChain chain, the answer streamed
// over server-sent events, and a conversation that does not exist. Prints what came back.

/** Sends the three requests to `base` (`http://host:port/api/chat`) as alice, in `session`. */
export async function sendDemoRequests(base, { question, session }) {
  const alice = { authorization: 'Bearer token-alice', 'x-session-id': session };

  // 1. A question: auth -> identify (alice) -> LangChain chain -> generation.
  const ask = await fetch(`${base}/c-1`, {
    method: 'POST',
    headers: { ...alice, 'content-type': 'application/json' },
    body: JSON.stringify({ question }),
  });
  console.log(`POST /api/chat/c-1 -> ${ask.status} trace ${ask.headers.get('x-obs-trace-id')}`, await ask.json());

  // 2. The answer streamed over server-sent events.
  const sse = await fetch(`${base}/c-1/stream?q=${encodeURIComponent(question.toLowerCase())}`, { headers: alice });
  const events = (await sse.text()).match(/^data: .*$/gm) ?? [];
  console.log(
    `GET /api/chat/c-1/stream -> ${sse.status}, ${events.length} events:`,
    events
      .slice(0, -1)
      .map((e) => JSON.parse(e.slice(6)).token)
      .join(''),
  );

  // 3. A conversation that does not exist: a 404, an answer rather than an error.
  const missing = await fetch(`${base}/c-404/history`, { headers: alice });
  console.log(`GET /api/chat/c-404/history -> ${missing.status}`, await missing.json());
}
