// An app on AWS Bedrock Runtime as a new user writes it, with the packed tarballs installed: one
// Converse and one ConverseStream call through observeBedrock, against a stand-in Bedrock Runtime
// in this process over HTTP/2 (the SDK's default), the stream in its binary event-stream framing.
import { createServer } from 'node:http2';
import { crc32 } from 'node:zlib';
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { initObs, startActiveObservation } from '@obs/core';
import { observeBedrock } from '@obs/bedrock';

/** One event-stream message: prelude (lengths and their CRC), string headers, JSON payload, CRC. */
function message(eventType, payload) {
  const headers = Buffer.concat(
    Object.entries({ ':message-type': 'event', ':event-type': eventType, ':content-type': 'application/json' }).map(([name, value]) => {
      const v = Buffer.from(value);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(v.length);
      return Buffer.concat([Buffer.from([name.length]), Buffer.from(name), Buffer.from([7]), length, v]);
    }),
  );
  const body = Buffer.from(JSON.stringify(payload));
  const prelude = Buffer.alloc(8);
  prelude.writeUInt32BE(16 + headers.length + body.length, 0);
  prelude.writeUInt32BE(headers.length, 4);
  const preludeCrc = Buffer.alloc(4);
  preludeCrc.writeUInt32BE(crc32(prelude));
  const withoutCrc = Buffer.concat([prelude, preludeCrc, headers, body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(withoutCrc));
  return Buffer.concat([withoutCrc, crc]);
}

const usage = { inputTokens: 10, outputTokens: 3, totalTokens: 17, cacheReadInputTokens: 4 };
const standIn = createServer(async (req, res) => {
  for await (const _ of req);
  if (!req.url.endsWith('/converse-stream')) {
    const out = {
      output: { message: { role: 'assistant', content: [{ text: 'json answer' }] } },
      stopReason: 'end_turn',
      usage,
      metrics: { latencyMs: 5 },
    };
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
  }
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
  res.write(message('messageStart', { role: 'assistant' }));
  res.write(message('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'streamed ' } }));
  res.write(message('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'answer' } }));
  res.write(message('contentBlockStop', { contentBlockIndex: 0 }));
  res.write(message('messageStop', { stopReason: 'end_turn' }));
  res.end(message('metadata', { usage, metrics: { latencyMs: 5 } }));
});
await new Promise((r) => standIn.listen(0, '127.0.0.1', r));

const obs = initObs();
const client = new BedrockRuntimeClient({
  region: 'us-east-1',
  endpoint: `http://127.0.0.1:${standIn.address().port}`,
  credentials: { accessKeyId: 'AKIDCONSUMER', secretAccessKey: 'consumer-secret' },
  maxAttempts: 1,
});
const bedrock = observeBedrock(client);
const input = { modelId: 'anthropic.claude-consumer-v1', messages: [{ role: 'user', content: [{ text: 'hi' }] }] };
let traceId = '';
const body = await startActiveObservation('bedrock-app', async (obs) => {
  traceId = obs.traceId;
  const json = await bedrock.send(new ConverseCommand(input));
  let streamed = '';
  for await (const e of (await bedrock.send(new ConverseStreamCommand(input))).stream) streamed += e.contentBlockDelta?.delta?.text ?? '';
  return { json: json.output.message.content[0].text, streamed };
});
client.destroy();
standIn.close();
await obs.shutdown();
console.log(`RESULT ${JSON.stringify({ traceId, body })}`);
