// A stand-in model on OpenAI's wire format (POST /v1/chat/completions), so the example records
// its cassette without an API key: it answers capital-city questions from a table, one of them
// wrongly, as a real model sometimes does. `npm run record` starts it on port 4010.
import { createServer } from 'node:http';

const CAPITALS = { France: 'Paris', Japan: 'Tokyo', Peru: 'Lima', Australia: 'Sydney', Canada: 'Ottawa', Kenya: 'Nairobi' };

/** Starts the stand-in; resolves with its `close()`. */
export function startStandInModel(port) {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const question = JSON.parse(body || '{}').messages?.at(-1)?.content ?? '';
    const country = Object.keys(CAPITALS).find((c) => question.includes(c));
    const answer = country ? CAPITALS[country] : 'I do not know';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${country ?? 'unknown'}`,
        object: 'chat.completion',
        created: 1_767_225_600,
        model: 'stand-in-capitals',
        choices: [{ index: 0, message: { role: 'assistant', content: answer, refusal: null }, finish_reason: 'stop', logprobs: null }],
        usage: { prompt_tokens: 24, completion_tokens: 2, total_tokens: 26 },
      }),
    );
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ close: () => new Promise((r) => server.close(r)) })));
}
