// An app on the Google Gen AI SDK as a new user writes it, with the packed tarballs installed: one
// generateContent and one generateContentStream call through observeGoogleGenAI, against a
// stand-in Gemini API (JSON, and server-sent events with ?alt=sse) in this process.
import { createServer } from 'node:http';
import { GoogleGenAI } from '@google/genai';
import { initObs, startActiveObservation } from '@obs/core';
import { observeGoogleGenAI } from '@obs/google-genai';

const usageMetadata = { promptTokenCount: 10, cachedContentTokenCount: 4, candidatesTokenCount: 3, totalTokenCount: 13 };
const reply = (text, last = true) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
  ...(last ? { usageMetadata } : {}),
  modelVersion: 'gemini-consumer-001',
});
const standIn = createServer(async (req, res) => {
  for await (const _ of req);
  if (!req.url.includes(':streamGenerateContent')) {
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply('json answer')));
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const chunk of [reply('streamed ', false), reply('answer')]) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  res.end();
});
await new Promise((r) => standIn.listen(0, '127.0.0.1', r));

const obs = initObs();
const ai = observeGoogleGenAI(
  new GoogleGenAI({ apiKey: 'AIza-consumer', httpOptions: { baseUrl: `http://127.0.0.1:${standIn.address().port}` } }),
);
const params = { model: 'gemini-consumer', contents: 'hi' };
let traceId = '';
const body = await startActiveObservation('google-genai-app', async (obs) => {
  traceId = obs.traceId;
  const json = await ai.models.generateContent(params);
  let streamed = '';
  for await (const chunk of await ai.models.generateContentStream(params)) streamed += chunk.text;
  return { json: json.text, streamed };
});
standIn.close();
await obs.shutdown();
console.log(`RESULT ${JSON.stringify({ traceId, body })}`);
