// An OpenAI Agents SDK app as a new user writes it, with the packed tarballs installed: a triage
// agent hands off to a writer that calls a tool, against a stand-in Responses API started here
// (each request takes the next scripted turn), traced by @obs/openai-agents.
import { createServer } from 'node:http';
import { getObsHandle, initObs } from '@obs/core';
import { observeOpenAIAgents } from '@obs/openai-agents';
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled, tool, withTrace } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';

const turns = [
  { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'transfer_to_Writer', arguments: '{}', status: 'completed' },
  { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'weather', arguments: '{"city":"Paris"}', status: 'completed' },
  {
    type: 'message',
    id: 'msg_3',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'Sunny in Paris.', annotations: [] }],
  },
];
const usage = {
  input_tokens: 30,
  input_tokens_details: { cached_tokens: 10 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 2 },
  total_tokens: 42,
};
let n = 0;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const { instructions } = JSON.parse(body);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `resp_${++n}`,
        object: 'response',
        created_at: 1,
        model: 'gpt-stand-in',
        status: 'completed',
        instructions,
        output: [turns[n - 1]],
        usage,
      }),
    );
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));

initObs();
observeOpenAIAgents();
// The test runner sets NODE_ENV=test, under which the Agents SDK turns its tracing off.
setTracingDisabled(false);
setDefaultOpenAIClient(new OpenAI({ apiKey: 'sk-consumer', baseURL: `http://127.0.0.1:${server.address().port}/v1`, maxRetries: 0 }));

const weather = tool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});
const writer = new Agent({ name: 'Writer', instructions: 'Write the answer.', tools: [weather] });
const triage = new Agent({ name: 'Triage', instructions: 'Route the question.', handoffs: [writer] });
const result = await withTrace('Consumer flow', () => run(triage, 'Weather in Paris?'));
server.close();
await new Promise((r) => setImmediate(r));
await getObsHandle()?.shutdown();
console.log(`RESULT ${JSON.stringify({ traceId: null, body: { answer: result.finalOutput } })}`);
