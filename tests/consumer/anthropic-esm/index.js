// An app on the Anthropic SDK as a new user writes it, with the packed tarballs installed: one
// JSON call and one streamed call through observeAnthropic, against a stand-in Messages API
// (JSON, and server-sent events with their event names) in this process.
import { createServer } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { initObs, startActiveObservation } from '@obs/core';
import { observeAnthropic } from '@obs/anthropic';

const usage = { input_tokens: 10, cache_read_input_tokens: 4, output_tokens: 3 };
const reply = (text) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-consumer',
  content: [{ type: 'text', text }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage,
});
const standIn = createServer(async (req, res) => {
  let body = '';
  for await (const c of req) body += c;
  const { stream } = JSON.parse(body);
  if (!stream) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply('json answer')));
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const events = [
    { type: 'message_start', message: { ...reply(''), content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'streamed ' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'answer' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
    { type: 'message_stop' },
  ];
  for (const e of events) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
});
await new Promise((r) => standIn.listen(0, '127.0.0.1', r));

const obs = initObs();
const anthropic = observeAnthropic(
  new Anthropic({ apiKey: 'sk-ant-consumer', baseURL: `http://127.0.0.1:${standIn.address().port}`, maxRetries: 0 }),
);
const params = { model: 'claude-consumer', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
let traceId = '';
const body = await startActiveObservation('anthropic-app', async (obs) => {
  traceId = obs.traceId;
  const json = await anthropic.messages.create(params);
  let streamed = '';
  for await (const e of await anthropic.messages.create({ ...params, stream: true })) {
    if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') streamed += e.delta.text;
  }
  return { json: json.content[0].text, streamed };
});
standIn.close();
await obs.shutdown();
console.log(`RESULT ${JSON.stringify({ traceId, body })}`);
