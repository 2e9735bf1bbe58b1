// An ESM TypeScript (strict) app using every package's entry point, run against the local server.
import type { AddressInfo } from 'node:net';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import type { ObsClient } from '@obs/client';
import { initObs, type ObsHandle } from '@obs/core';
import { ObsBrowserClient } from '@obs/core/browser';
import { obsErrorHandler, obsMiddleware } from '@obs/express';
import { CallbackHandler } from '@obs/langchain';
import type { ObsSpanProcessor } from '@obs/otel';
import { observe } from '@obs/tracing';
import express, { type Request } from 'express';

const obs: ObsHandle = initObs({ flushOnExit: false });
const processor: ObsSpanProcessor = obs.spanProcessor;
const client: ObsClient = obs.client;
const browserType: typeof ObsBrowserClient = ObsBrowserClient;
const handler = new CallbackHandler();
const chain = ChatPromptTemplate.fromMessages([['human', 'Answer {question}']])
  .pipe(new FakeListChatModel({ responses: ['esm answer'] }))
  .pipe(new StringOutputParser());
const shout = observe(async (text: string) => text.toUpperCase(), { name: 'shout' });

const app = express();
app.use(obsMiddleware({ identify: (req: Request) => ({ userId: req.get('x-user') ?? 'anonymous', tags: ['esm'] }) }));
app.use(express.json());
app.post('/chat/:id', async (req, res) => {
  const body = req.body as { question: string };
  const answer = await chain.invoke({ question: body.question }, { callbacks: [handler] });
  res.json({ answer: await shout(answer) });
});
app.use(obsErrorHandler());

const server = app.listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const { port } = server.address() as AddressInfo;
const res = await fetch(`http://127.0.0.1:${port}/chat/2`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-user': 'esm-user' },
  body: JSON.stringify({ question: 'hi' }),
});
const body: unknown = await res.json();
await new Promise<void>((resolve) => server.close(() => resolve()));
client.score.create({ traceId: res.headers.get('x-obs-trace-id') ?? '', name: 'consumer', value: 1 });
await handler.flush();
await obs.shutdown();
console.log(
  `RESULT ${JSON.stringify({ traceId: res.headers.get('x-obs-trace-id'), body, processor: processor.enabled, browser: typeof browserType })}`,
);
