// A local Responses API endpoint for the agents bench, in its own process so that answering costs
// the measured process nothing: `POST /v1/responses` answers a `weather` function call when the
// request's input has no function output yet, else a fixed text. Sends { port } over IPC.
import { createServer } from 'node:http';

const usage = {
  input_tokens: 30,
  input_tokens_details: { cached_tokens: 10 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 42,
};
const response = (output) =>
  JSON.stringify({ id: 'resp_bench', object: 'response', created_at: 1, model: 'gpt-bench', status: 'completed', output, usage });
const call = response([
  { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}', status: 'completed' },
]);
const text = response([
  {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'Sunny in Paris.', annotations: [] }],
  },
]);

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body.includes('"function_call_output"') ? text : call);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => m === 'close' && server.close(() => process.exit(0)));
