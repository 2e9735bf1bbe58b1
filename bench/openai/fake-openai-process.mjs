// A local OpenAI-compatible endpoint for the OpenAI bench, in its own process so that answering
// costs the measured process nothing: `POST /v1/chat/completions` answers a fixed completion as
// JSON, or as server-sent events when the request asks to stream. Sends { port } over IPC.
import { createServer } from 'node:http';

const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-bench',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Refunds take five business days.', refusal: null },
      finish_reason: 'stop',
      logprobs: null,
    },
  ],
  usage: {
    prompt_tokens: 24,
    completion_tokens: 7,
    total_tokens: 31,
    prompt_tokens_details: { cached_tokens: 8 },
    completion_tokens_details: { reasoning_tokens: 0 },
  },
});
const chunk = (delta, finish = null, extra = {}) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-bench', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
const sse = [
  chunk({ role: 'assistant', content: '' }),
  ...'Refunds take five business days.'.split(' ').map((w, i) => chunk({ content: i === 0 ? w : ` ${w}` })),
  chunk({}, 'stop'),
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-bench', choices: [], usage: { prompt_tokens: 24, completion_tokens: 7, total_tokens: 31 } })}\n\n`,
  'data: [DONE]\n\n',
].join('');

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (body.includes('"stream":true')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completion);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (msg) => {
  if (msg === 'close') server.close(() => process.exit(0));
});
